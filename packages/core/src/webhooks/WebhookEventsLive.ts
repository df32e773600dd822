import { Clock, Effect, Layer } from "effect"
import { Ids } from "../platform/Ids"
import { WebhooksRepo } from "./Repo"
import { WebhookEvents } from "./WebhookEvents"

/** `WebhookEvents` over the webhooks' own tables: the event and its deliveries in one statement. */
export const WebhookEventsLive = Layer.effect(
  WebhookEvents,
  Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const ids = yield* Ids
    return WebhookEvents.of({
      emit: (communityId, type, data) =>
        Effect.gen(function*() {
          yield* repo.emit({
            id: yield* ids.next,
            communityId,
            type,
            data: JSON.stringify({ ...data, communityId }),
            at: new Date(yield* Clock.currentTimeMillis)
          })
        }).pipe(Effect.withSpan("WebhookEvents.emit")),
      emitWithin: (communityId, type, source) =>
        Effect.map(
          Effect.all({ id: ids.next, now: Clock.currentTimeMillis }),
          ({ id, now }) => repo.emitWithin({ id, communityId, type, at: new Date(now) }, source)
        )
    })
  })
)
