import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"

export const EnrollmentRow = Schema.Struct({
  id: Schema.String,
  courseId: Schema.String,
  profileId: ProfileId,
  enrolledAt: Schema.DateFromSelf
})
export type EnrollmentRow = typeof EnrollmentRow.Type

export const ProgressRow = Schema.Struct({
  lessonId: Schema.String,
  courseId: Schema.String,
  profileId: ProfileId,
  completed: Schema.Boolean,
  percent: Schema.Number,
  lastPositionSeconds: Schema.Number,
  completedAt: Schema.NullOr(Schema.DateFromSelf),
  updatedAt: Schema.DateFromSelf
})
export type ProgressRow = typeof ProgressRow.Type

const decodeEnrollments = decodeRows(EnrollmentRow)
const decodeRecorded = decodeRows(Schema.Struct({ ...ProgressRow.fields, wasCompleted: Schema.Boolean }))
const decodeCount = decodeRows(Schema.Struct({ count: Schema.Number }))
const decodeCompletion = decodeRows(Schema.Struct({ total: Schema.Number, completed: Schema.Number }))

export interface ProgressChange {
  readonly communityId: string
  readonly courseId: string
  readonly lessonId: string
  readonly profileId: string
  readonly completed: boolean | undefined
  readonly percent: number | undefined
  readonly lastPositionSeconds: number | undefined
  readonly at: Date
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for enrollments and lesson progress. */
export class LearningRepo extends Effect.Service<LearningRepo>()("@roda/core/LearningRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const progressColumns = sql`lesson_id, course_id, profile_id, completed, percent, last_position_seconds,
      completed_at, updated_at`

    return {
      enrollment: (communityId: CommunityId, courseId: string, profileId: ProfileId) =>
        sql`SELECT id, course_id, profile_id, enrolled_at FROM enrollments
          WHERE community_id = ${communityId} AND course_id = ${courseId} AND profile_id = ${profileId}`.pipe(
          Effect.flatMap(decodeEnrollments),
          Effect.map(first),
          Effect.orDie
        ),
      /**
       * The enrollment, locked until the caller's transaction ends: a learner's progress calls on one
       * course are recorded one at a time, so each completion count sees the lessons the others completed.
       */
      lockEnrollment: (communityId: CommunityId, courseId: string, profileId: ProfileId) =>
        sql`SELECT id, course_id, profile_id, enrolled_at FROM enrollments
          WHERE community_id = ${communityId} AND course_id = ${courseId} AND profile_id = ${profileId}
          FOR UPDATE`.pipe(Effect.flatMap(decodeEnrollments), Effect.map(first), Effect.orDie),
      /** The new enrollment, or none when the profile was already enrolled. */
      enroll: (
        row: { id: string; communityId: CommunityId; courseId: string; profileId: ProfileId; enrolledAt: Date }
      ) =>
        sql`INSERT INTO enrollments ${sql.insert(row)}
          ON CONFLICT (community_id, course_id, profile_id) DO NOTHING
          RETURNING id, course_id, profile_id, enrolled_at`.pipe(
          Effect.flatMap(decodeEnrollments),
          Effect.map(first),
          Effect.orDie
        ),
      enrollmentCount: (communityId: CommunityId, courseId: string) =>
        sql`SELECT count(*)::int AS count FROM enrollments
          WHERE community_id = ${communityId} AND course_id = ${courseId}`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie
        ),
      /**
       * Fields left `undefined` keep their value; completing stamps `completed_at` once. `wasCompleted`:
       * whether the lesson was completed before this change (read in the same statement).
       */
      record: (change: ProgressChange) => {
        const completed = change.completed ?? null
        const percent = change.percent ?? null
        const position = change.lastPositionSeconds ?? null
        return sql`WITH prior AS (
            SELECT completed FROM lesson_progress WHERE community_id = ${change.communityId}
              AND lesson_id = ${change.lessonId} AND profile_id = ${change.profileId})
          INSERT INTO lesson_progress (community_id, lesson_id, course_id, profile_id,
            completed, percent, last_position_seconds, completed_at, updated_at)
          VALUES (${change.communityId}, ${change.lessonId}, ${change.courseId}, ${change.profileId},
            coalesce(${completed}::boolean, false), coalesce(${percent}::int, 0), coalesce(${position}::int, 0),
            CASE WHEN ${completed}::boolean THEN ${change.at}::timestamptz END, ${change.at})
          ON CONFLICT (community_id, lesson_id, profile_id) DO UPDATE SET
            completed = coalesce(${completed}::boolean, lesson_progress.completed),
            percent = coalesce(${percent}::int, lesson_progress.percent),
            last_position_seconds = coalesce(${position}::int, lesson_progress.last_position_seconds),
            completed_at = CASE
              WHEN coalesce(${completed}::boolean, lesson_progress.completed) IS NOT TRUE THEN NULL
              ELSE coalesce(lesson_progress.completed_at, ${change.at}::timestamptz) END,
            course_id = EXCLUDED.course_id,
            updated_at = EXCLUDED.updated_at
          RETURNING ${progressColumns}, coalesce((SELECT completed FROM prior), false) AS was_completed`.pipe(
          Effect.flatMap(decodeRecorded),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        )
      },
      /** Lessons of the course, and how many of them the learner completed. */
      completion: (communityId: CommunityId, courseId: string, profileId: ProfileId) =>
        sql`SELECT count(*)::int AS total,
            count(*) FILTER (WHERE p.completed)::int AS completed
          FROM lessons l LEFT JOIN lesson_progress p ON p.community_id = l.community_id AND p.lesson_id = l.id
            AND p.profile_id = ${profileId}
          WHERE l.community_id = ${communityId} AND l.course_id = ${courseId}`.pipe(
          Effect.flatMap(decodeCompletion),
          Effect.map((rows) => rows[0] ?? { total: 0, completed: 0 }),
          Effect.orDie
        )
    }
  })
}) {}
