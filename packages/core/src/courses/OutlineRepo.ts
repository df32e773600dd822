import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { LessonRow, ModuleRow } from "./CurriculumRepo"
import type { EnrollmentRow, ProgressRow } from "./LearningRepo"
import type { OutlineInput } from "./outline"
import type { LessonType } from "./Policy"
import type { CourseRow } from "./Repo"

/** One row of the outline statement: the columns of every kind, null where a kind has no such column. */
interface OutlineLine {
  readonly kind: "module" | "lesson" | "enrollment" | "progress"
  /** The module, lesson or enrollment id; the lesson id of a progress row. */
  readonly id: string
  readonly moduleId: string | null
  readonly profileId: string | null
  readonly title: string | null
  readonly type: LessonType | null
  readonly body: string | null
  readonly imageUrl: string | null
  readonly videoUrl: string | null
  readonly url: string | null
  readonly durationSeconds: number | null
  readonly position: number | null
  readonly releaseAfterDays: number | null
  readonly completed: boolean | null
  readonly percent: number | null
  readonly lastPositionSeconds: number | null
  readonly completedAt: Date | null
  /** The enrollment date of an enrollment row. */
  readonly createdAt: Date | null
  readonly updatedAt: Date | null
}

/** A course as read by CoursesRepo: its ids as the database spells them. */
type CourseIds = Pick<CourseRow, "communityId" | "id">

/**
 * The course detail's read of the curriculum (modules, lessons) and learning (enrollment, progress)
 * tables in ONE statement: a UNION ALL of typed rows, so that the driver parses every column (dates
 * included) as the single-table reads of CurriculumRepo and LearningRepo do.
 */
export class OutlineRepo extends Effect.Service<OutlineRepo>()("@roda/core/OutlineRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The course's own ids are not read again: every row belongs to `course`. */
    const outlineOf = (course: CourseIds, profileId: string | undefined) => {
      const { communityId, id: courseId } = course
      // Every branch lists the same columns on the same lines: ids; lesson (and module) fields; progress; times.
      const learnerRows = profileId === undefined ? sql`` : sql`
        UNION ALL
        SELECT 'enrollment', id, NULL, profile_id,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
          NULL, NULL, NULL, NULL,
          enrolled_at, NULL
        FROM enrollments WHERE community_id = ${communityId} AND course_id = ${courseId} AND profile_id = ${profileId}
        UNION ALL
        SELECT 'progress', lesson_id, NULL, profile_id,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
          completed, percent, last_position_seconds, completed_at,
          NULL, updated_at
        FROM lesson_progress
        WHERE community_id = ${communityId} AND course_id = ${courseId} AND profile_id = ${profileId}`
      return sql<OutlineLine>`
        SELECT 'module' AS kind, id, NULL::uuid AS module_id, NULL::uuid AS profile_id,
          title, NULL::text AS type, NULL::text AS body, NULL::text AS image_url, NULL::text AS video_url,
            NULL::text AS url, NULL::int AS duration_seconds, position, NULL::int AS release_after_days,
          NULL::boolean AS completed, NULL::int AS percent, NULL::int AS last_position_seconds,
            NULL::timestamptz AS completed_at,
          created_at, updated_at
        FROM course_modules WHERE community_id = ${communityId} AND course_id = ${courseId}
        UNION ALL
        SELECT 'lesson', id, module_id, NULL,
          title, type, body, image_url, video_url, url, duration_seconds, position, release_after_days,
          NULL, NULL, NULL, NULL,
          created_at, updated_at
        FROM lessons WHERE community_id = ${communityId} AND course_id = ${courseId}
        ${learnerRows}
        ORDER BY kind, position, id`.pipe(
        Effect.map((lines) => outlineFrom(course, lines, profileId !== undefined)),
        Effect.orDie
      )
    }

    return { outlineOf }
  })
}) {}

/** The lines split back into the row types of the curriculum and learning repos (modules in order). */
const outlineFrom = (
  course: CourseIds,
  lines: ReadonlyArray<OutlineLine>,
  withLearner: boolean
): Pick<OutlineInput, "learner" | "lessons" | "modules"> => {
  const { communityId, id: courseId } = course
  const modules: Array<ModuleRow> = []
  const lessons: Array<LessonRow> = []
  const progress: Array<ProgressRow> = []
  let enrollment: EnrollmentRow | undefined
  for (const line of lines) {
    switch (line.kind) {
      case "module":
        modules.push({
          id: line.id,
          communityId,
          courseId,
          title: line.title!,
          position: line.position!,
          createdAt: line.createdAt!,
          updatedAt: line.updatedAt!
        })
        break
      case "lesson":
        lessons.push({
          id: line.id,
          communityId,
          courseId,
          moduleId: line.moduleId!,
          title: line.title!,
          type: line.type!,
          body: line.body,
          imageUrl: line.imageUrl,
          videoUrl: line.videoUrl,
          url: line.url,
          durationSeconds: line.durationSeconds,
          position: line.position!,
          releaseAfterDays: line.releaseAfterDays,
          createdAt: line.createdAt!,
          updatedAt: line.updatedAt!
        })
        break
      case "enrollment":
        enrollment = { id: line.id, courseId, profileId: line.profileId!, enrolledAt: line.createdAt! }
        break
      case "progress":
        progress.push({
          lessonId: line.id,
          courseId,
          profileId: line.profileId!,
          completed: line.completed!,
          percent: line.percent!,
          lastPositionSeconds: line.lastPositionSeconds!,
          completedAt: line.completedAt,
          updatedAt: line.updatedAt!
        })
        break
    }
  }
  return { modules, lessons, learner: withLearner ? { enrollment, progress } : undefined }
}
