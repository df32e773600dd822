import { Context, type Effect } from "effect"
import type { WebhookEventType } from "./eventTypes"

/**
 * How a feature tells the community's webhooks about a change (contract; `WebhookEventsLive` writes
 * it into the webhooks' own tables). Called inside the change's transaction: the event and its
 * deliveries are written by one statement, committed or rolled back with the change (an outbox), and
 * the delivery worker sends them after the commit, from any process, even one started later.
 */
export class WebhookEvents extends Context.Tag("@roda/core/WebhookEvents")<WebhookEvents, {
  /** `data`: the resource as its detail route answers it; `communityId` is added. */
  readonly emit: (communityId: string, type: WebhookEventType, data: Record<string, unknown>) => Effect.Effect<void>
}>() {}
