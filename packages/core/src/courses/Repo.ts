import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId, isUuid, SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { type CourseLevel, courseLevels, type CourseStatus, courseStatuses } from "./Policy"

/** The course's own columns (the outline's statement reads them too). */
export const courseFields = {
  id: Schema.String,
  spaceId: SpaceId,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  level: Schema.Literal(...courseLevels),
  status: Schema.Literal(...courseStatuses),
  coverUrl: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  publishedAt: Schema.NullOr(Schema.DateFromSelf)
}

export const CourseRow = Schema.Struct({ ...courseFields, communityId: CommunityId })
export type CourseRow = typeof CourseRow.Type

const decodeCourses = decodeRows(CourseRow)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeStatuses = decodeRows(Schema.Struct({ status: Schema.Literal(...courseStatuses) }))

// A type alias (not an interface), so that it is a `Record` for `sql.insert`.
export type NewCourseRow = {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly title: string
  readonly slug: string
  readonly description: string | null
  readonly level: CourseLevel
  readonly coverUrl: string | null
  readonly createdBy: string
}

export interface CourseFilter {
  readonly spaceId?: string | undefined
  readonly status?: CourseStatus | undefined
  readonly level?: CourseLevel | undefined
  /** Only courses of these spaces (members); `undefined` means every space (staff). */
  readonly spaceIds?: ReadonlyArray<string> | undefined
  readonly afterId?: string | undefined
  readonly limit: number
}

export type CourseChanges = Partial<{
  title: string
  slug: string
  description: string | null
  level: CourseLevel
  status: CourseStatus
  coverUrl: string | null
  publishedAt: Date | null
}>

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/**
 * A course by id or by slug, over `courses`: the condition and the order that puts the match by id
 * first (an id-shaped slug is found too; the id wins). Take the first row.
 */
export const identifierMatch = (sql: SqlClient.SqlClient, identifier: string) => {
  const value = identifier.trim().toLowerCase()
  return {
    match: isUuid(value) ? sql`(id = ${value} OR slug = ${value})` : sql`slug = ${value}`,
    order: sql`(slug = ${value})`
  }
}

/** SQL for courses. */
export class CoursesRepo extends Effect.Service<CoursesRepo>()("@roda/core/CoursesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql`SELECT id, community_id, space_id, title, slug, description, level, status, cover_url,
      created_at, updated_at, published_at FROM courses`

    return {
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeCourses),
          Effect.map(first),
          Effect.orDie
        ),
      /**
       * The course, share-locked until the caller's transaction ends: its status cannot move (nor the
       * course go) while an enrollment is written against it.
       */
      findShared: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE community_id = ${communityId} AND id = ${id} FOR SHARE`.pipe(
          Effect.flatMap(decodeCourses),
          Effect.map(first),
          Effect.orDie
        ),
      /** Locks the course row: changes to its outline (positions) and status moves are serialised per course. */
      lock: (communityId: CommunityId, id: string) =>
        sql`SELECT id FROM courses WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** `lock`, answering the course's status (none: no such course). */
      lockStatus: (communityId: CommunityId, id: string) =>
        sql`SELECT status FROM courses WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeStatuses),
          Effect.map((rows) => Option.fromNullable(rows[0]?.status)),
          Effect.orDie
        ),
      /** Fails with the SqlError of a unique violation when the slug is taken in the community. */
      insert: (row: NewCourseRow) => sql`INSERT INTO courses ${sql.insert(row)}`.pipe(Effect.asVoid),
      /** Fails with the SqlError of a unique violation when the new slug is taken. */
      update: (communityId: CommunityId, id: string, changes: CourseChanges) =>
        Object.keys(changes).length === 0
          ? Effect.void
          : sql`UPDATE courses SET ${sql.update(changes)}, updated_at = now()
              WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid),
      /** Modules, lessons and enrollments go with it (foreign keys); progress rows stay. */
      remove: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM courses WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      list: (communityId: CommunityId, filter: CourseFilter) => {
        if (filter.spaceIds !== undefined && filter.spaceIds.length === 0) return Effect.succeed([])
        const conditions = [
          sql`community_id = ${communityId}`,
          ...(filter.spaceId ? [sql`space_id = ${filter.spaceId}`] : []),
          ...(filter.spaceIds ? [sql.in("space_id", filter.spaceIds)] : []),
          ...(filter.status ? [sql`status = ${filter.status}`] : []),
          ...(filter.level ? [sql`level = ${filter.level}`] : []),
          ...(filter.afterId ? [sql`id > ${filter.afterId}`] : [])
        ]
        return sql`${select} WHERE ${sql.and(conditions)} ORDER BY id LIMIT ${filter.limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCourses)
        )
      }
    }
  })
}) {}
