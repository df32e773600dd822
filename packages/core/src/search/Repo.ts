import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { searchTypes } from "./types"
export { type SearchType, searchTypes } from "./types"

export interface SearchScope {
  readonly communityId: string
  /** Spaces whose content the viewer may read. */
  readonly spaceIds: ReadonlyArray<string>
  /** Staff also find draft courses and their lessons. */
  readonly staff: boolean
}

export const SearchRow = Schema.Struct({
  type: Schema.Literal(...searchTypes),
  id: Schema.String,
  title: Schema.String,
  spaceId: SpaceId,
  courseId: Schema.NullOr(Schema.String),
  score: Schema.Number
})
export type SearchRow = typeof SearchRow.Type

const decodeResults = decodeRows(SearchRow)

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

/** Title search over trigram indexes on `roda_unaccent(lower(title))` (migration 0008). */
export class SearchRepo extends Effect.Service<SearchRepo>()("@roda/core/SearchRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const unionAll = sql.join(" UNION ALL ", false)

    const search = (scope: SearchScope, q: string, limit: number) => {
      const c = scope.communityId
      const inSpaces = (column: string) => scope.spaceIds.length === 0 ? sql`FALSE` : sql.in(column, scope.spaceIds)
      const published = (column: string) => scope.staff ? sql`TRUE` : sql`${sql.literal(column)} = 'published'`
      const term = sql`roda_unaccent(lower(${q}))`
      const escaped = sql`roda_unaccent(lower(${escapeLike(q)}))`
      const title = sql`roda_unaccent(lower(t.title))`
      // Title starts with the query (2), a word starts with it (1), else 0; then word similarity.
      const score = sql`((CASE WHEN ${title} LIKE ${escaped} || '%' THEN 2
          WHEN ' ' || ${title} LIKE '% ' || ${escaped} || '%' THEN 1 ELSE 0 END) + word_similarity(${term}, ${title}))`
      const matches = sql`(${title} LIKE '%' || ${escaped} || '%' OR ${term} <% ${title})`
      const part = (
        type: string,
        from: Statement.Fragment,
        spaceId: Statement.Fragment,
        courseId: Statement.Fragment,
        where: Statement.Fragment
      ) =>
        sql`(SELECT ${type}::text AS type, t.id, t.title, ${spaceId} AS space_id, ${courseId} AS course_id,
          ${score}::float8 AS score FROM ${from}
          WHERE t.community_id = ${c} AND ${where} AND ${matches}
          ORDER BY score DESC, length(t.title), t.id LIMIT ${limit})`
      const none = sql`NULL::uuid`
      const parts = [
        part("space", sql`space_summaries t`, sql`t.id`, none, inSpaces("t.id")),
        part(
          "course",
          sql`course_items t`,
          sql`t.space_id`,
          none,
          sql`${inSpaces("t.space_id")} AND ${published("t.status")}`
        ),
        part(
          "lesson",
          sql`lesson_titles t JOIN course_items c ON c.community_id = t.community_id AND c.id = t.course_id`,
          sql`c.space_id`,
          sql`t.course_id`,
          sql`${inSpaces("c.space_id")} AND ${published("c.status")}`
        ),
        part(
          "event",
          sql`event_items t`,
          sql`t.space_id`,
          none,
          sql`t.deleted_at IS NULL AND t.hidden_at IS NULL AND ${inSpaces("t.space_id")}`
        ),
        part(
          "content",
          sql`content_post_items t`,
          sql`t.space_id`,
          none,
          sql`t.deleted_at IS NULL AND t.hidden_at IS NULL AND ${inSpaces("t.space_id")}`
        )
      ]
      return sql`SELECT * FROM (${unionAll(parts)}) r
        ORDER BY r.score DESC, length(r.title), r.type, r.id LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeResults)
      )
    }

    return { search }
  })
}) {}
