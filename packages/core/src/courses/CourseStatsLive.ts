import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { inPeriods, periodOf } from "../sql/periods"
import { CourseStats } from "./CourseStats"

/** Counts as text: `count(*)` is a bigint, which the drivers do not give as a number. */
const decodeSeries = decodeRows(Schema.Struct({
  period: Schema.String,
  enrollments: Schema.String,
  lessonCompletions: Schema.String,
  completions: Schema.String
}))

/** `CourseStats` over the courses tables (read only). */
export const CourseStatsLive = Layer.effect(
  CourseStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      series: (communityId, range, profileId) => {
        const who = (column: string) => profileId === undefined ? sql`` : sql`AND ${sql.unsafe(column)} = ${profileId}`
        return sql`
          SELECT ${periodOf(sql, "at", range)} AS period,
            count(*) FILTER (WHERE what = 'enrollment')::text AS enrollments,
            count(*) FILTER (WHERE what = 'lesson')::text AS lesson_completions,
            count(*) FILTER (WHERE what = 'course')::text AS completions
          FROM (
            SELECT enrolled_at AS at, 'enrollment' AS what FROM enrollments
            WHERE community_id = ${communityId} AND ${inPeriods(sql, "enrolled_at", range)} ${who("profile_id")}
            UNION ALL
            SELECT completed_at, 'lesson' FROM lesson_progress
            WHERE community_id = ${communityId} AND completed AND ${inPeriods(sql, "completed_at", range)}
              ${who("profile_id")}
            UNION ALL
            SELECT done.at, 'course' FROM (
              -- A course completes when its last lesson does: only learners who completed a lesson in the
              -- range are looked at, one by one (not every learner's progress: ~150k rows at bench/scale).
              SELECT DISTINCT course_id, profile_id FROM lesson_progress
              WHERE community_id = ${communityId} AND completed AND ${inPeriods(sql, "completed_at", range)}
                ${who("profile_id")}
            ) recent CROSS JOIN LATERAL (
              -- Progress on lessons that still exist: a removed lesson's (or course's) is kept, but completes nothing.
              SELECT recent.course_id, max(lp.completed_at) AS at, count(*) AS lessons
              FROM lesson_progress lp JOIN lessons l ON l.community_id = lp.community_id AND l.id = lp.lesson_id
              WHERE lp.community_id = ${communityId} AND lp.course_id = recent.course_id
                AND lp.profile_id = recent.profile_id AND lp.completed
            ) done
            WHERE ${inPeriods(sql, "done.at", range)} AND done.lessons >= (
              SELECT count(*) FROM lessons l WHERE l.community_id = ${communityId} AND l.course_id = done.course_id)
          ) a GROUP BY 1`.pipe(
          Effect.flatMap(decodeSeries),
          Effect.map((rows) =>
            rows.map((row) => ({
              period: row.period,
              enrollments: Number(row.enrollments),
              lessonCompletions: Number(row.lessonCompletions),
              completions: Number(row.completions)
            }))
          ),
          Effect.orDie
        )
      }
    }
  })
)
