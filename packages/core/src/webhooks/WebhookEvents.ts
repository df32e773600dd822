import type { Fragment } from "@effect/sql/Statement"
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
  /**
   * The same write as CTEs for a change that is one statement with no transaction: the caller adds
   * them to its own `WITH` (after the CTEs that `from` names), so the event commits with the change
   * in that one statement. `data` is a jsonb expression over `from`; when `from` has no row, no
   * event is written.
   */
  readonly emitWithin: (
    communityId: string,
    type: WebhookEventType,
    source: { readonly data: Fragment; readonly from: Fragment }
  ) => Effect.Effect<Fragment>
}>() {}
