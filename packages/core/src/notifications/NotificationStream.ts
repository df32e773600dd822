import { Chunk, Clock, Duration, Effect, Option, Stream } from "effect"
import type { Member } from "../domain/Caller"
import type { Language } from "../domain/Text"
import { NOTIFICATION_HEARTBEAT_SECONDS, Options } from "../platform/Options"
import { makeInboxReads } from "./InboxReads"
import { view } from "./Notifications"
import { type InboxKey, NotificationsRepo } from "./Repo"
import type { NotificationRow } from "./rows"
import { NotificationSignals } from "./Signals"

/** Notifications read per statement; a full page is followed by another at once. */
const PAGE = 100
const LAST_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const encoder = new TextEncoder()
const HEARTBEAT = encoder.encode(": heartbeat\n\n")
/** Sent at once, so that the status and headers leave with it (clients and proxies see the stream open). */
const OPENED = encoder.encode(": open\n\n")

/** One notification as a Server-Sent Event: its id (for `Last-Event-ID`), `notification`, the item. */
export const sseEvent = (item: ReturnType<ReturnType<typeof view>>) =>
  `id: ${item.id}\nevent: notification\ndata: ${JSON.stringify(item)}\n\n`

/**
 * The caller's notifications as they are written, as Server-Sent Events: on each wake-up of
 * `NotificationSignals` one statement reads those after the last one sent (by `created_at`, then id:
 * the ids are not in time order), shared by the streams woken with it (`InboxReads`), so an idle
 * stream costs no statement and 2,000 woken at once cost a few.
 */
export class NotificationStream extends Effect.Service<NotificationStream>()("@roda/core/NotificationStream", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationsRepo
    const signals = yield* NotificationSignals
    const options = yield* Options
    const every = Duration.seconds(options.notificationHeartbeatSeconds ?? NOTIFICATION_HEARTBEAT_SECONDS)
    const reads = makeInboxReads(repo, PAGE)

    /** After `lastEventId` when it is a notification of this inbox, else from now on. */
    const start = (member: Member, lastEventId: string | undefined) =>
      Effect.gen(function*() {
        if (lastEventId !== undefined && UUID.test(lastEventId)) {
          const id = lastEventId.toLowerCase()
          const at = yield* repo.createdAt(member.communityId, member.actingProfileId, id)
          if (at !== undefined) return [at.toISOString(), id] as InboxKey
        }
        return [new Date(yield* Clock.currentTimeMillis).toISOString(), LAST_UUID] as InboxKey
      })

    const open = (member: Member, lastEventId: string | undefined, language: Language) =>
      Stream.unwrap(Effect.map(start(member, lastEventId), (from) => {
        let after = from
        const toEvent = (row: NotificationRow) => encoder.encode(sseEvent(view(language)(row)))
        const next = Effect.suspend(() => reads.read(member.communityId, member.actingProfileId, after)).pipe(
          Effect.map((rows) => {
            const last = rows.at(-1)
            if (last !== undefined) after = [last.createdAt.toISOString(), last.id]
            return [
              Chunk.fromIterable(rows.map(toEvent)),
              rows.length === PAGE ? Option.some(0) : Option.none()
            ] as const
          })
        )
        const read = Stream.paginateChunkEffect(0, () => next)
        const events = Stream.flatMap(signals.subscribe(member.communityId, member.actingProfileId), () => read)
        const heartbeats = Stream.tick(every).pipe(Stream.drop(1), Stream.as(HEARTBEAT))
        return Stream.concat(Stream.succeed(OPENED), Stream.merge(events, heartbeats))
      }))

    return { open, subscribers: signals.subscribers }
  })
}) {}
