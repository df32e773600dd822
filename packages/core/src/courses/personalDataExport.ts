import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../privacy/PersonalData"
import { afterKey, idKey, isoOf, keysetRowsOfEach } from "../sql/keysetExport"

/** Enrollments per statement: each carries its lessons' progress (one row per lesson started). */
const ENROLLMENTS_PAGE = 100

/**
 * Courses' file of a members' data export (issue 56): the subject's enrollments, each with the progress
 * of its lessons (by `enrollments_profile_courses_idx`, migration 0056, and `lesson_progress_learner_idx`).
 */
export const coursesExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "enrollments.json",
    describes: "The courses you enrolled in, when, and your progress in each lesson you started.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT e.id, e.community_id, e.course_id, c.title AS course_title,
            ${isoOf(sql, "e.enrolled_at")} AS enrolled_at,
            (SELECT coalesce(json_agg(json_build_object(
                'lessonId', p.lesson_id, 'lessonTitle', l.title, 'completed', p.completed, 'percent', p.percent,
                'lastPositionSeconds', p.last_position_seconds, 'completedAt', ${isoOf(sql, "p.completed_at")},
                'updatedAt', ${isoOf(sql, "p.updated_at")}
              ) ORDER BY l.position, l.id), '[]'::json)
              FROM lesson_progress p JOIN lessons l ON l.community_id = p.community_id AND l.id = p.lesson_id
              WHERE p.community_id = e.community_id AND p.course_id = e.course_id AND p.profile_id = e.profile_id
            ) AS progress
          FROM enrollments e JOIN courses c ON c.community_id = e.community_id AND c.id = e.course_id
          WHERE e.community_id = ${profile.communityId} AND e.profile_id = ${profile.profileId}
            ${afterKey(sql, "e.id", after)}
          ORDER BY e.id LIMIT ${ENROLLMENTS_PAGE}`,
        idKey,
        ENROLLMENTS_PAGE
      )
  }
])
