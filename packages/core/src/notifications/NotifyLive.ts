import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer } from "effect"
import { Jobs } from "../platform/Jobs"
import { Access } from "../structure/Access"
import { spacePostJob } from "./FanOut"
import { Notify } from "./Notify"
import { readersOf } from "./readers"
import { NotificationsRepo } from "./Repo"
import { NotificationSignals } from "./Signals"

/**
 * `Notify` over the notifications' own tables: one statement in the caller's transaction, which also
 * wakes the streams (`NotificationSignals`: on PostgreSQL its `pg_notify`; in process after it).
 */
export const NotifyLive = Layer.effect(
  Notify,
  Effect.gen(function*() {
    const repo = yield* NotificationsRepo
    const jobs = yield* Jobs
    const signals = yield* NotificationSignals
    const readers = readersOf(yield* Access, yield* SqlClient.SqlClient)
    return Notify.of({
      notify: (communityId, notification) =>
        notification.recipients.length === 0 ? Effect.void : Effect.gen(function*() {
          const readable = notification.spaceId ? yield* readers(communityId) : undefined
          const signal = signals.inStatement(communityId, notification.recipients)
          yield* repo.insert(communityId, notification, readable, new Date(yield* Clock.currentTimeMillis), signal)
          if (signal === undefined) yield* signals.publish(communityId, notification.recipients)
        }).pipe(Effect.withSpan("Notify.notify")),
      notifyMailing: (communityId, notification) =>
        notification.recipients.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
          const readable = notification.spaceId ? yield* readers(communityId) : undefined
          const now = new Date(yield* Clock.currentTimeMillis)
          const signal = signals.inStatement(communityId, notification.recipients)
          const wanting = yield* repo.insertMailedByProducer(communityId, notification, readable, now, signal)
          if (signal === undefined) yield* signals.publish(communityId, notification.recipients)
          return wanting
        }).pipe(Effect.withSpan("Notify.notifyMailing")),
      withdraw: (communityId, itemId) => repo.withdraw(communityId, itemId).pipe(Effect.withSpan("Notify.withdraw")),
      followFeeds: (communityId, profileId) =>
        Effect.gen(function*() {
          const readable = yield* readers(communityId)
          yield* repo.followFeeds(communityId, profileId, readable, new Date(yield* Clock.currentTimeMillis))
        }).pipe(Effect.withSpan("Notify.followFeeds")),
      notifyFollowers: (communityId, spaceId, notification) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          jobs.enqueue(spacePostJob({
            communityId,
            spaceId,
            postedAt: new Date(now).toISOString(),
            actorProfileId: notification.actorProfileId ?? null,
            subject: notification.subject
          }))).pipe(Effect.asVoid, Effect.withSpan("Notify.notifyFollowers"))
    })
  })
).pipe(Layer.provide(NotificationsRepo.Default))
