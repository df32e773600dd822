import { Effect, Option } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { WebhookEventType } from "../../webhooks/eventTypes"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { SubscriptionReading } from "./Reading"
import { SubscriptionsRepo } from "./Repo"

export type SubscriptionEventType = Extract<WebhookEventType, `subscription.${string}`>

/**
 * A subscription's webhook events: the subscription as the team's detail route answers it, read
 * again after the change, written in the caller's transaction (the one that made the change).
 */
export class SubscriptionEvents extends Effect.Service<SubscriptionEvents>()("@roda/core/SubscriptionEvents", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriptionsRepo
    const reading = yield* SubscriptionReading
    const webhooks = yield* WebhookEvents

    const emit = (
      row: { readonly communityId: CommunityId; readonly id: string },
      type: SubscriptionEventType,
      extra: Record<string, unknown> = {}
    ) =>
      Effect.gen(function*() {
        const found = Option.getOrThrow(yield* repo.find(row.communityId, row.id))
        yield* webhooks.emit(row.communityId, type, { ...(yield* reading.teamViewOfRow(found)), ...extra })
      })

    return { emit }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionReading.Default]
}) {}
