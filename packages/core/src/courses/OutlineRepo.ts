import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import type { LessonRow, ModuleRow } from "./CurriculumRepo"
import type { EnrollmentRow, ProgressRow } from "./LearningRepo"
import type { OutlineInput } from "./outline"
import type { CourseLevel, CourseStatus, LessonType } from "./Policy"
import { type CourseRow, identifierMatch } from "./Repo"

/**
 * One row of the detail statement: the course's own line, then its outline's, with the columns of
 * every kind, null where a kind has no such column.
 */
interface DetailLine {
  readonly kind: "course" | "module" | "lesson" | "enrollment" | "progress"
  /** The course, module, lesson or enrollment id; the lesson id of a progress row. */
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
  // The course line's own columns.
  readonly spaceId: string | null
  readonly slug: string | null
  readonly description: string | null
  readonly level: CourseLevel | null
  readonly status: CourseStatus | null
  readonly coverUrl: string | null
  readonly publishedAt: Date | null
  /** Whether the viewer may read the course's space, by `Access.readableSpaces`. */
  readonly readable: boolean | null
}

export interface DetailViewer {
  /** `Access.readableSpaces` of the viewer: the spaces whose content they may read. */
  readonly readable: Statement.Fragment
  /** The learner whose enrollment and progress are read (a member's acting profile). */
  readonly profileId: string | undefined
  /** Staff see drafts. */
  readonly staff: boolean
}

export interface Detail {
  readonly course: CourseRow
  /** Whether the viewer may read the course's space. */
  readonly readable: boolean
  /** Read only when the viewer may see it: readable, and published or the viewer is staff. */
  readonly outline: Pick<OutlineInput, "learner" | "lessons" | "modules"> | undefined
}

/**
 * The course detail's read in ONE statement: the course by id or slug with the viewer's access to
 * its space, and, only when the viewer may see it (no lesson content is read otherwise), its
 * curriculum (modules, lessons) and the learner's enrollment and progress. A UNION ALL of typed
 * rows, so that the driver parses every column (dates included) as the single-table reads of
 * CoursesRepo, CurriculumRepo and LearningRepo do.
 */
export class OutlineRepo extends Effect.Service<OutlineRepo>()("@roda/core/OutlineRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const detailOf = (communityId: string, identifier: string, viewer: DetailViewer) => {
      const { profileId } = viewer
      const { match, order } = identifierMatch(sql, identifier)
      const shown = sql`(SELECT id FROM shown)`
      // Every branch lists the same columns on the same lines: ids; lesson (and module) fields;
      // progress; times; the course's own.
      const learnerRows = profileId === undefined ? sql`` : sql`
        UNION ALL
        SELECT 'enrollment', id, NULL, profile_id,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
          NULL, NULL, NULL, NULL,
          enrolled_at, NULL,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM enrollments WHERE community_id = ${communityId} AND course_id = ${shown} AND profile_id = ${profileId}
        UNION ALL
        SELECT 'progress', lesson_id, NULL, profile_id,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
          completed, percent, last_position_seconds, completed_at,
          NULL, updated_at,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM lesson_progress
        WHERE community_id = ${communityId} AND course_id = ${shown} AND profile_id = ${profileId}`
      return sql<DetailLine>`
        WITH course AS (
          SELECT id, space_id, title, slug, description, level, status, cover_url, created_at, updated_at,
            published_at, space_id IN (${viewer.readable}) AS readable
          FROM courses WHERE community_id = ${communityId} AND ${match} ORDER BY ${order} LIMIT 1
        ), shown AS (
          SELECT id FROM course WHERE readable AND (status = 'published' OR ${viewer.staff}::boolean)
        )
        SELECT 'course' AS kind, id, NULL::uuid AS module_id, NULL::uuid AS profile_id,
          title, NULL::text AS type, NULL::text AS body, NULL::text AS image_url, NULL::text AS video_url,
            NULL::text AS url, NULL::int AS duration_seconds, NULL::int AS position,
            NULL::int AS release_after_days,
          NULL::boolean AS completed, NULL::int AS percent, NULL::int AS last_position_seconds,
            NULL::timestamptz AS completed_at,
          created_at, updated_at,
          space_id, slug, description, level, status, cover_url, published_at, readable
        FROM course
        UNION ALL
        SELECT 'module', id, NULL, NULL,
          title, NULL, NULL, NULL, NULL, NULL, NULL, position, NULL,
          NULL, NULL, NULL, NULL,
          created_at, updated_at,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM course_modules WHERE community_id = ${communityId} AND course_id = ${shown}
        UNION ALL
        SELECT 'lesson', id, module_id, NULL,
          title, type, body, image_url, video_url, url, duration_seconds, position, release_after_days,
          NULL, NULL, NULL, NULL,
          created_at, updated_at,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM lessons WHERE community_id = ${communityId} AND course_id = ${shown}
        ${learnerRows}
        ORDER BY kind, position, id`.pipe(
        Effect.map((lines) => detailFrom(communityId, lines, viewer)),
        Effect.orDie
      )
    }

    return { detailOf }
  })
}) {}

const courseFrom = (communityId: string, line: DetailLine): CourseRow => ({
  id: line.id,
  communityId,
  spaceId: line.spaceId!,
  title: line.title!,
  slug: line.slug!,
  description: line.description,
  level: line.level!,
  status: line.status!,
  coverUrl: line.coverUrl,
  createdAt: line.createdAt!,
  updatedAt: line.updatedAt!,
  publishedAt: line.publishedAt
})

/** The lines split back into the row types of the course, curriculum and learning repos (modules in order). */
const detailFrom = (
  communityId: string,
  lines: ReadonlyArray<DetailLine>,
  viewer: DetailViewer
): Option.Option<Detail> => {
  const head = lines[0]
  if (head === undefined || head.kind !== "course") return Option.none()
  const course = courseFrom(communityId, head)
  const courseId = course.id
  const readable = head.readable === true
  // The statement's `shown`: the outline lines are there only then.
  const shown = readable && (course.status === "published" || viewer.staff)
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
  return Option.some({
    course,
    readable,
    outline: shown
      ? { modules, lessons, learner: viewer.profileId === undefined ? undefined : { enrollment, progress } }
      : undefined
  })
}
