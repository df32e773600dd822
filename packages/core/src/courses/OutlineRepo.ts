import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { isStaff, Role } from "../domain/Role"
import { decodeRows } from "../domain/Rows"
import { isStaffSql } from "../sql/roles"
import type { CallerColumns } from "../structure/Access"
import { lessonFields, type LessonRow, type ModuleRow } from "./CurriculumRepo"
import type { EnrollmentRow, ProgressRow } from "./LearningRepo"
import type { OutlineInput } from "./outline"
import { courseFields, type CourseRow, identifierMatch } from "./Repo"

/**
 * The outline's rows as the statement aggregates them (JSON, keys converted to camelCase by the
 * client as for any column): times as milliseconds since the epoch (`epochMs`).
 */
const ModuleJson = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  position: Schema.Number,
  createdAt: Schema.Number,
  updatedAt: Schema.Number
})
const LessonJson = Schema.Struct({
  ...lessonFields,
  createdAt: Schema.Number,
  updatedAt: Schema.Number
})
const EnrollmentJson = Schema.Struct({ id: Schema.String, enrolledAt: Schema.Number })
const ProgressJson = Schema.Struct({
  lessonId: Schema.String,
  completed: Schema.Boolean,
  percent: Schema.Number,
  lastPositionSeconds: Schema.Number,
  completedAt: Schema.NullOr(Schema.Number),
  updatedAt: Schema.Number
})

/** The detail statement's one row: the course's columns, the viewer's access, the outline as JSON (null when not read). */
const DetailLine = Schema.Struct({
  ...courseFields,
  /** Whether the viewer may read the course's space, by `Access.readableSpaces`. */
  readable: Schema.NullOr(Schema.Boolean),
  modules: Schema.NullOr(Schema.Array(ModuleJson)),
  lessons: Schema.NullOr(Schema.Array(LessonJson)),
  enrollment: Schema.NullOr(EnrollmentJson),
  progress: Schema.NullOr(Schema.Array(ProgressJson))
})
type DetailLine = typeof DetailLine.Type

/** The caller columns `detailAs` adds to the line; `id` is null when no course matches. */
const CallerLine = Schema.Struct({
  id: Schema.NullOr(Schema.String),
  callerProfileId: Schema.NullOr(ProfileId),
  callerRole: Schema.NullOr(Role)
})

const decodeDetail = decodeRows(DetailLine)
const decodeCaller = decodeRows(CallerLine)

export interface DetailViewer {
  /** `Access.readableSpaces` of the viewer: the spaces whose content they may read. */
  readonly readable: Statement.Fragment
  /** The learner whose enrollment and progress are read (a member's acting profile). */
  readonly profileId: ProfileId | undefined
  /** Staff see drafts. */
  readonly staff: boolean
}

/** What `detailAs` read: the caller's membership (none when no member), and the detail as `detailOf`'s. */
export interface DetailOfCaller {
  readonly caller: Option.Option<{ readonly profileId: ProfileId; readonly role: Role }>
  /** The caller is staff (sees drafts), as the statement decided. */
  readonly staff: boolean
  readonly detail: Option.Option<Detail>
}

export interface Detail {
  readonly course: CourseRow
  /** Whether the viewer may read the course's space. */
  readonly readable: boolean
  /** Read only when the viewer may see it: readable, and published or the viewer is staff. */
  readonly outline: Pick<OutlineInput, "learner" | "lessons" | "modules"> | undefined
}

/**
 * The course detail's read in ONE statement and one row: the course by id or slug with the viewer's
 * access to its space, and, only when the viewer may see it (no lesson content is read otherwise),
 * its curriculum (modules, lessons) and the learner's enrollment and progress, each aggregated as
 * JSON. One row of a few columns is parsed in one `JSON.parse` per aggregate; the same outline as
 * rows (a UNION ALL of ~20 lines of 28 columns) cost the driver and the name conversion ~4x the
 * Node CPU.
 */
export class OutlineRepo extends Effect.Service<OutlineRepo>()("@roda/core/OutlineRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * A timestamptz as whole milliseconds since the epoch, rounded down as the driver's parse of the
     * column truncates its microseconds (JSON would write the time in the session's time zone).
     */
    const epochMs = (column: string) => sql`floor(extract(epoch FROM ${sql(column)}) * 1000)::int8`

    /**
     * The statement for a viewer whose learner and staff flag are SQL expressions (a parameter, or a
     * column of the `caller` CTE that `prefix` opens); `from` is what the course row is read from.
     */
    const detailStatement = (communityId: CommunityId, identifier: string, viewer: {
      readonly prefix: Statement.Fragment
      readonly readable: Statement.Fragment
      readonly profileId: Statement.Fragment | undefined
      readonly staff: Statement.Fragment
      readonly from: Statement.Fragment
      readonly callerColumns: Statement.Fragment
    }) => {
      const { profileId } = viewer
      const { match, order } = identifierMatch(sql, identifier)
      const shown = sql`(SELECT id FROM shown)`
      const learner = profileId === undefined
        ? sql`NULL::json AS enrollment, NULL::json AS progress`
        : sql`
          (SELECT row_to_json(e) FROM (
            SELECT id, ${epochMs("enrolled_at")} AS enrolled_at
            FROM enrollments WHERE community_id = ${communityId} AND course_id = ${shown} AND profile_id = ${profileId}
          ) e) AS enrollment,
          (SELECT json_agg(p) FROM (
            SELECT lesson_id, completed, percent, last_position_seconds, ${epochMs("completed_at")} AS completed_at,
              ${epochMs("updated_at")} AS updated_at
            FROM lesson_progress
            WHERE community_id = ${communityId} AND course_id = ${shown} AND profile_id = ${profileId}
          ) p) AS progress`
      return sql`
        WITH ${viewer.prefix} course AS (
          SELECT id, space_id, title, slug, description, level, status, cover_url, created_at, updated_at,
            published_at, space_id IN (${viewer.readable}) AS readable
          FROM courses WHERE community_id = ${communityId} AND ${match} ORDER BY ${order} LIMIT 1
        ), shown AS (
          SELECT id FROM course WHERE readable AND (status = 'published' OR ${viewer.staff})
        )
        SELECT course.*,
          (SELECT json_agg(m ORDER BY m.position, m.id) FROM (
            SELECT id, title, position, ${epochMs("created_at")} AS created_at, ${epochMs("updated_at")} AS updated_at
            FROM course_modules WHERE community_id = ${communityId} AND course_id = ${shown}
          ) m) AS modules,
          (SELECT json_agg(l ORDER BY l.position, l.id) FROM (
            SELECT id, module_id, title, type, body, image_url, video_url, url, duration_seconds, position,
              release_after_days, ${epochMs("created_at")} AS created_at, ${epochMs("updated_at")} AS updated_at
            FROM lessons WHERE community_id = ${communityId} AND course_id = ${shown}
          ) l) AS lessons,
          ${learner}${viewer.callerColumns}
        FROM ${viewer.from}`
    }

    const detailOf = (communityId: CommunityId, identifier: string, viewer: DetailViewer) =>
      detailStatement(communityId, identifier, {
        prefix: sql``,
        readable: viewer.readable,
        profileId: viewer.profileId === undefined ? undefined : sql`${viewer.profileId}`,
        staff: sql`${viewer.staff}::boolean`,
        from: sql`course`,
        callerColumns: sql``
      }).pipe(
        Effect.flatMap(decodeDetail),
        Effect.map((lines) => detailFrom(communityId, lines[0], viewer)),
        Effect.orDie
      )

    /** The caller's profile and role in `detailAs`'s statement (its CTE `caller`), for `Access.readableSpacesOf`. */
    const callerColumns: CallerColumns = {
      profileId: sql`(SELECT profile_id FROM caller)`,
      role: sql`(SELECT role FROM caller)`
    }

    /**
     * `detailOf` for a caller read in the same statement (`DeferredVisitor.caller`, as the CTE
     * `caller`; `readable` is `Access.readableSpacesOf` over `callerColumns`): none when the caller's
     * account is gone, else the caller's profile and role with the detail (none when no course matches).
     */
    const detailAs = (
      communityId: CommunityId,
      identifier: string,
      caller: Statement.Fragment,
      readable: Statement.Fragment
    ) =>
      detailStatement(communityId, identifier, {
        prefix: sql`caller AS (${caller}),`,
        readable,
        profileId: callerColumns.profileId,
        staff: isStaffSql(sql, callerColumns.role),
        from: sql`caller LEFT JOIN course ON true`,
        callerColumns: sql`, caller.profile_id AS caller_profile_id, caller.role AS caller_role`
      }).pipe(
        Effect.flatMap((lines) =>
          Effect.flatMap(decodeCaller(lines), ([line]) => {
            // `caller LEFT JOIN course`: no row without the account, the course's columns null when none matches.
            if (line === undefined) return Effect.succeed(Option.none<DetailOfCaller>())
            const profileId = line.callerProfileId ?? undefined
            const staff = line.callerRole !== null && isStaff(line.callerRole)
            const role = line.callerRole
            const caller = profileId === undefined || role === null ? Option.none() : Option.some({ profileId, role })
            const done = (found: DetailLine | undefined) =>
              Option.some<DetailOfCaller>({
                caller,
                staff,
                detail: detailFrom(communityId, found, { profileId, staff })
              })
            return line.id === null
              ? Effect.succeed(done(undefined))
              : Effect.map(decodeDetail(lines), ([found]) => done(found))
          })
        ),
        Effect.orDie
      )

    return { detailOf, detailAs, callerColumns }
  })
}) {}

const courseFrom = (communityId: CommunityId, line: DetailLine): CourseRow => ({
  id: line.id,
  communityId,
  spaceId: line.spaceId,
  title: line.title,
  slug: line.slug,
  description: line.description,
  level: line.level,
  status: line.status,
  coverUrl: line.coverUrl,
  createdAt: line.createdAt,
  updatedAt: line.updatedAt,
  publishedAt: line.publishedAt
})

/** The row split back into the row types of the course, curriculum and learning repos (modules in order). */
const detailFrom = (
  communityId: CommunityId,
  line: DetailLine | undefined,
  viewer: Pick<DetailViewer, "profileId" | "staff">
): Option.Option<Detail> => {
  if (line === undefined) return Option.none()
  const course = courseFrom(communityId, line)
  const courseId = course.id
  const readable = line.readable === true
  // The statement's `shown`: the outline is there only then.
  if (!(readable && (course.status === "published" || viewer.staff))) {
    return Option.some({ course, readable, outline: undefined })
  }
  const modules = (line.modules ?? []).map((m): ModuleRow => ({
    id: m.id,
    communityId,
    courseId,
    title: m.title,
    position: m.position,
    createdAt: new Date(m.createdAt),
    updatedAt: new Date(m.updatedAt)
  }))
  const lessons = (line.lessons ?? []).map((l): LessonRow => ({
    id: l.id,
    communityId,
    courseId,
    moduleId: l.moduleId,
    title: l.title,
    type: l.type,
    body: l.body,
    imageUrl: l.imageUrl,
    videoUrl: l.videoUrl,
    url: l.url,
    durationSeconds: l.durationSeconds,
    position: l.position,
    releaseAfterDays: l.releaseAfterDays,
    createdAt: new Date(l.createdAt),
    updatedAt: new Date(l.updatedAt)
  }))
  const { profileId } = viewer
  if (profileId === undefined) {
    return Option.some({ course, readable, outline: { modules, lessons, learner: undefined } })
  }
  const enrollment: EnrollmentRow | undefined = line.enrollment === null
    ? undefined
    : { id: line.enrollment.id, courseId, profileId, enrolledAt: new Date(line.enrollment.enrolledAt) }
  const progress = (line.progress ?? []).map((p): ProgressRow => ({
    lessonId: p.lessonId,
    courseId,
    profileId,
    completed: p.completed,
    percent: p.percent,
    lastPositionSeconds: p.lastPositionSeconds,
    completedAt: p.completedAt === null ? null : new Date(p.completedAt),
    updatedAt: new Date(p.updatedAt)
  }))
  return Option.some({ course, readable, outline: { modules, lessons, learner: { enrollment, progress } } })
}
