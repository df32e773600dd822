import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schema } from "effect"
import { Jobs } from "../platform/Jobs"
import { transactional } from "../sql/transaction"
import { Access } from "../structure/Access"
import { readersOf } from "./readers"
import { NotificationsRepo } from "./Repo"
import { NotificationSignals } from "./Signals"

export const SPACE_POST_JOB = "notifications.spacePost"

/** Followers notified per job: one statement, one transaction each. */
export const FAN_OUT_BATCH = 1000

const NIL = "00000000-0000-0000-0000-000000000000"

export const FanOutPayload = Schema.Struct({
  communityId: Schema.String,
  spaceId: Schema.String,
  actorProfileId: Schema.NullOr(Schema.String),
  subject: Schema.Struct({ type: Schema.String, id: Schema.String, title: Schema.String }),
  /**
   * When the post was made (ISO): only those following by then are notified, not one who follows
   * while the jobs run. Absent in jobs queued before it was recorded: every follower.
   */
  postedAt: Schema.optional(Schema.String),
  /** The last follower (by profile id) of the batch before; absent for the first batch. */
  after: Schema.optional(Schema.String),
  /** Followers per batch (`FAN_OUT_BATCH` unless given). */
  batch: Schema.optional(Schema.Int.pipe(Schema.between(1, 10_000)))
})
export type FanOutPayload = typeof FanOutPayload.Type

export const spacePostJob = (payload: FanOutPayload) => ({
  kind: SPACE_POST_JOB,
  key: `${payload.subject.id}:${payload.after ?? "first"}`,
  payload,
  maxAttempts: 10
})

const decodePayload = Schema.decodeUnknown(FanOutPayload)

/**
 * `space_post` to a space's followers as a chain of durable jobs: each writes one batch of
 * notifications and queues the next batch in the same transaction. A process that dies mid-way loses
 * nothing (the job runs again) and duplicates nothing (one `space_post` per post and recipient:
 * `once_key`; a batch queued twice is keyed once while it waits).
 */
export const FanOut = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* NotificationsRepo
  const jobs = yield* Jobs
  const signals = yield* NotificationSignals
  const readers = readersOf(yield* Access, sql)

  const run = (raw: unknown) =>
    Effect.gen(function*() {
      const payload = yield* decodePayload(raw)
      const at = new Date(yield* Clock.currentTimeMillis)
      const size = payload.batch ?? FAN_OUT_BATCH
      const readable = yield* readers(payload.communityId)
      // the batch's recipients, named by its statement (the in-process channel wakes every stream after)
      const signal = signals.recipientsInStatement(payload.communityId, sql`SELECT recipient_profile_id FROM written`)
      yield* transactional(sql)(Effect.gen(function*() {
        const batch = yield* repo.notifyFollowersBatch(
          payload.communityId,
          payload.spaceId,
          {
            kind: "space_post",
            actorProfileId: payload.actorProfileId,
            subject: payload.subject,
            spaceId: payload.spaceId,
            onceKey: payload.subject.id
          },
          payload.after ?? NIL,
          size,
          readable,
          at,
          payload.postedAt === undefined ? undefined : new Date(payload.postedAt),
          signal
        )
        if (signal === undefined && batch.n > 0) yield* signals.publish(payload.communityId, null)
        if (batch.n === size && batch.last !== null) {
          yield* jobs.enqueue(spacePostJob({ ...payload, after: batch.last }))
        }
      }))
    })

  yield* jobs.handle(SPACE_POST_JOB, run)
})
