import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { CommunityId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { Notify } from "../notifications/Notify"
import { Jobs } from "../platform/Jobs"
import { transactional } from "../sql/transaction"

export const LESSON_ADDED_JOB = "courses.lessonAdded"

/** Learners notified per job: one batch, one transaction each. */
export const LESSON_NOTICE_BATCH = 1000

const NIL = "00000000-0000-0000-0000-000000000000"

const Payload = Schema.Struct({
  communityId: CommunityId,
  courseId: Schema.String,
  lessonId: Schema.String,
  /** The last learner (by profile id) of the batch before; absent for the first batch. */
  after: Schema.optional(Schema.String),
  /** Learners per batch (`LESSON_NOTICE_BATCH` unless given). */
  batch: Schema.optional(Schema.Int.pipe(Schema.between(1, 10_000)))
})
type Payload = typeof Payload.Type

const jobOf = (payload: Payload) => ({
  kind: LESSON_ADDED_JOB,
  key: `${payload.lessonId}:${payload.after ?? "first"}`,
  payload,
  maxAttempts: 10
})

const decodeLearners = decodeRows(Schema.Struct({
  profileId: Schema.String,
  title: Schema.String,
  spaceId: Schema.String
}))

/**
 * `course_update`: a lesson added to a published course tells its learners, as a chain of durable
 * jobs over the enrollments in batches (each batch queues the next in its transaction). A job run
 * twice duplicates nothing (`onceKey`: the lesson); a lesson or course removed, or a course moved back
 * to draft, before its turn tells no one.
 */
export class LessonNotices extends Effect.Service<LessonNotices>()("@roda/core/LessonNotices", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* Jobs
    const notify = yield* Notify

    /** The next `limit` learners after `after` of the course, while it is published and has the lesson. */
    const learners = (payload: Payload, limit: number) =>
      sql`SELECT e.profile_id, c.title, c.space_id FROM enrollments e
        JOIN courses c ON c.community_id = e.community_id AND c.id = e.course_id AND c.status = 'published'
        WHERE e.community_id = ${payload.communityId} AND e.course_id = ${payload.courseId}
          AND e.profile_id > ${payload.after ?? NIL}::uuid
          AND EXISTS (SELECT 1 FROM lessons l WHERE l.community_id = e.community_id
            AND l.course_id = e.course_id AND l.id = ${payload.lessonId})
        ORDER BY e.profile_id LIMIT ${limit}`.pipe(Effect.flatMap(decodeLearners), Effect.orDie)

    const run = (raw: unknown) =>
      Effect.gen(function*() {
        const payload = yield* Schema.decodeUnknown(Payload)(raw)
        const size = payload.batch ?? LESSON_NOTICE_BATCH
        yield* transactional(sql)(Effect.gen(function*() {
          const rows = yield* learners(payload, size)
          if (rows.length === 0) return
          const course = rows[0]!
          yield* notify.notify(payload.communityId, {
            kind: "course_update",
            recipients: rows.map((row) => row.profileId),
            subject: { type: "course", id: payload.courseId, title: course.title },
            spaceId: course.spaceId,
            onceKey: payload.lessonId
          })
          if (rows.length === size) yield* jobs.enqueue(jobOf({ ...payload, after: rows.at(-1)!.profileId }))
        }))
      })

    yield* jobs.handle(LESSON_ADDED_JOB, run)

    return {
      /** In the lesson's transaction: the job that tells the course's learners. */
      added: (communityId: CommunityId, courseId: string, lessonId: string) =>
        jobs.enqueue(jobOf({ communityId, courseId, lessonId })).pipe(Effect.asVoid)
    }
  })
}) {}
