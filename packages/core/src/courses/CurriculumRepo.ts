import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { lessonTypes } from "./Policy"

export const ModuleRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  courseId: Schema.String,
  title: Schema.String,
  position: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ModuleRow = typeof ModuleRow.Type

/** A lesson's own columns, as its row and the outline's JSON both carry them. */
export const lessonFields = {
  id: Schema.String,
  moduleId: Schema.String,
  title: Schema.String,
  type: Schema.Literal(...lessonTypes),
  body: Schema.NullOr(Schema.String),
  imageUrl: Schema.NullOr(Schema.String),
  videoUrl: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  durationSeconds: Schema.NullOr(Schema.Number),
  position: Schema.Number,
  releaseAfterDays: Schema.NullOr(Schema.Number)
}

export const LessonRow = Schema.Struct({
  ...lessonFields,
  communityId: CommunityId,
  courseId: Schema.String,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type LessonRow = typeof LessonRow.Type

const decodeModules = decodeRows(ModuleRow)
const decodeLessons = decodeRows(LessonRow)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))

export type LessonFields = Omit<LessonRow, "createdAt" | "updatedAt">

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for the outline of courses: modules and lessons, with their positions. */
export class CurriculumRepo extends Effect.Service<CurriculumRepo>()("@roda/core/CurriculumRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const modules = sql`SELECT id, community_id, course_id, title, position, created_at, updated_at
      FROM course_modules`
    const lessons = sql`SELECT id, community_id, course_id, module_id, title, type, body, image_url, video_url, url,
      duration_seconds, position, release_after_days, created_at, updated_at FROM lessons`

    /** Gives `ids` the positions 0..n-1 in this order, in one statement. */
    const renumber = (table: "course_modules" | "lessons", communityId: CommunityId, ids: ReadonlyArray<string>) =>
      ids.length === 0
        ? Effect.void
        : sql`UPDATE ${sql(table)} AS t SET position = data.position::int, updated_at = now()
            FROM ${sql.updateValues(ids.map((id, position) => ({ id, position })), "data")}
            WHERE t.community_id = ${communityId} AND t.id = data.id::uuid AND t.position <> data.position::int`
          .pipe(Effect.asVoid, Effect.orDie)

    return {
      findModule: (communityId: CommunityId, id: string) =>
        sql`${modules} WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeModules),
          Effect.map(first),
          Effect.orDie
        ),
      modulesOf: (communityId: CommunityId, courseId: string) =>
        sql`${modules} WHERE community_id = ${communityId} AND course_id = ${courseId}
          ORDER BY position, id`.pipe(Effect.orDie, Effect.flatMap(decodeModules)),
      insertModule: (
        row: { id: string; communityId: CommunityId; courseId: string; title: string; position: number }
      ) => sql`INSERT INTO course_modules ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      renameModule: (communityId: CommunityId, id: string, title: string) =>
        sql`UPDATE course_modules SET title = ${title}, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** Its lessons go with it (foreign key); progress rows stay. */
      removeModule: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM course_modules WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      renumberModules: (communityId: CommunityId, ids: ReadonlyArray<string>) =>
        renumber("course_modules", communityId, ids),

      findLesson: (communityId: CommunityId, id: string) =>
        sql`${lessons} WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeLessons),
          Effect.map(first),
          Effect.orDie
        ),
      lessonIdsOfModule: (communityId: CommunityId, moduleId: string) =>
        sql`SELECT id FROM lessons WHERE community_id = ${communityId} AND module_id = ${moduleId}
          ORDER BY position, id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.map((row) => row.id)),
          Effect.orDie
        ),
      insertLesson: (row: LessonFields) =>
        sql`INSERT INTO lessons ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      updateLesson: (
        communityId: CommunityId,
        id: string,
        changes: Partial<Omit<LessonFields, "id" | "communityId">>
      ) =>
        Object.keys(changes).length === 0
          ? Effect.void
          : sql`UPDATE lessons SET ${sql.update(changes)}, updated_at = now()
              WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      removeLesson: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM lessons WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      renumberLessons: (communityId: CommunityId, ids: ReadonlyArray<string>) => renumber("lessons", communityId, ids)
    }
  })
}) {}
