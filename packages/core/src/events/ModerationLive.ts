import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option } from "effect"
import type { CommunityId } from "../domain/Ids"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { EventModeration } from "./Moderation"
import { EventNotices } from "./Notices"
import { EventsRepo } from "./Repo"
import { eventView } from "./view"

/** `EventModeration` over the events tables. */
export const EventModerationLive = Layer.effect(
  EventModeration,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* EventsRepo
    const notices = yield* EventNotices
    const webhooks = yield* WebhookEvents

    const hide = (communityId: CommunityId, id: string) =>
      sql`UPDATE events SET hidden_at = now()
        WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL AND hidden_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** The host's removal (`Events.remove`): only the statement that removes it tells anyone. */
    const remove = (communityId: CommunityId, id: string) =>
      Effect.gen(function*() {
        const found = yield* repo.find(communityId, id)
        if (Option.isNone(found)) return
        const at = new Date(yield* Clock.currentTimeMillis)
        const removed = yield* sql`UPDATE events SET deleted_at = ${at}, updated_at = ${at}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL RETURNING id`.pipe(Effect.orDie)
        if (removed.length === 0) return
        const event = found.value
        yield* notices.canceled(event)
        yield* webhooks.emit(communityId, "event.canceled", { ...eventView(event, true), canceledAt: at.toISOString() })
      })

    return { hide, remove }
  })
).pipe(Layer.provide(Layer.mergeAll(EventsRepo.Default, EventNotices.Default)))
