import { Effect } from "effect"
import type { WebhookEventType } from "../../webhooks/eventTypes"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import type { ViewedRow } from "./Repo"
import { teamView } from "./view"

export type SubscriptionEventType = Extract<WebhookEventType, `subscription.${string}`>

/**
 * A subscription's webhook events: the subscription as the team's detail route answers it, as the
 * statement that changed it answered it (`SubscriptionsRepo.updateViewed`, `insertViewed`), written in
 * that change's transaction. Emitting reads nothing: one statement, the event's.
 */
export class SubscriptionEvents extends Effect.Service<SubscriptionEvents>()("@roda/core/SubscriptionEvents", {
  effect: Effect.gen(function*() {
    const webhooks = yield* WebhookEvents

    const emit = (viewed: ViewedRow, type: SubscriptionEventType, extra: Record<string, unknown> = {}) =>
      webhooks.emit(viewed.communityId, type, { ...teamView(viewed, viewed.addOns), ...extra }).pipe(
        Effect.withSpan("WebhookEvents.subscription")
      )

    return { emit }
  })
}) {}
