import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { CANDIDATES_PER_MATCH, searchTypes } from "./types"
export { CANDIDATES_PER_MATCH, type SearchType, searchTypes } from "./types"

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

/**
 * A trigram index can find `LIKE '%q%'` only through a run of 3 letters or digits; without one it
 * would test every title, so a shorter `q` matches by title prefix and word similarity only.
 */
const hasTrigram = (q: string) => /[\p{L}\p{N}]{3}/u.test(q)

/** The end of the range of texts starting with a prefix, in byte (`C`) order: the last code point. */
const LAST_CHARACTER = String.fromCodePoint(0x10ffff)

/**
 * Title search over `roda_unaccent(lower(title))`. The candidates of courses, lessons, events and posts
 * come from index scans that stop after `CANDIDATES_PER_MATCH` rows each (migration 0060): titles
 * starting with `q` in byte order (a B-tree), titles containing it and titles with a word resembling
 * it (a trigram GiST read in index order); only the candidates are ranked. A community's spaces are
 * few: all of their matches are ranked.
 */
export class SearchRepo extends Effect.Service<SearchRepo>()("@roda/core/SearchRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const unionAll = sql.join(" UNION ALL ", false)
    const union = sql.join(" UNION ", false)

    const search = (scope: SearchScope, q: string, limit: number) => {
      const c = scope.communityId
      // One array, read once (an InitPlan): a constant list is estimated space by space for each part.
      const spaces = `{${scope.spaceIds.join(",")}}`
      const inSpaces = (column: Statement.Fragment) =>
        scope.spaceIds.length === 0 ? sql`FALSE` : sql`${column} = ANY((SELECT ${spaces}::uuid[])::uuid[])`
      const published = (column: Statement.Fragment) => scope.staff ? sql`TRUE` : sql`${column} = 'published'`
      const term = sql`roda_unaccent(lower(${q}))`
      const escaped = sql`roda_unaccent(lower(${escapeLike(q)}))`
      const normalized = (title: Statement.Fragment) => sql`roda_unaccent(lower(${title}))`
      const most = Math.max(CANDIDATES_PER_MATCH, limit)

      const part = (
        type: string,
        size: "small" | "large",
        from: Statement.Fragment,
        columns: { spaceId: Statement.Fragment; courseId: Statement.Fragment },
        where: Statement.Fragment
      ) => {
        const title = normalized(sql`t.title`)
        const candidates = (match: Statement.Fragment, order: Statement.Fragment = sql``, cap = sql`LIMIT ${most}`) =>
          sql`(SELECT t.id, t.title, ${columns.spaceId} AS space_id, ${columns.courseId} AS course_id FROM ${from}
            WHERE t.community_id = ${c} AND ${where} AND ${match} ${order} ${cap})`
        const startsWith = sql`${title} LIKE ${escaped} || '%'`
        const contains = hasTrigram(q) ? sql`${title} LIKE '%' || ${escaped} || '%'` : startsWith
        const resembles = sql`${term} <% ${title}`
        const matches = size === "small"
          ? [candidates(sql`(${contains} OR ${resembles})`, sql``, sql``)]
          : [
            // In byte order from the B-tree: the best ranked kind of match, found however many there are.
            candidates(
              sql`(${title}) COLLATE "C" >= ${term} AND (${title}) COLLATE "C" < ${term} || ${LAST_CHARACTER}
                AND ${startsWith}`,
              sql`ORDER BY (${title}) COLLATE "C"`
            ),
            ...(hasTrigram(q) ? [candidates(contains)] : []),
            candidates(resembles)
          ]
        const found = normalized(sql`m.title`)
        // Title starts with the query (2), a word starts with it (1), else 0; then word similarity.
        const score = sql`((CASE WHEN ${found} LIKE ${escaped} || '%' THEN 2
          WHEN ' ' || ${found} LIKE '% ' || ${escaped} || '%' THEN 1 ELSE 0 END) + word_similarity(${term}, ${found}))`
        return sql`(SELECT ${type}::text AS type, m.id, m.title, m.space_id, m.course_id, ${score}::float8 AS score
          FROM (${union(matches)}) m ORDER BY score DESC, length(m.title), m.id LIMIT ${limit})`
      }
      const none = sql`NULL::uuid`
      const parts = [
        part("space", "small", sql`space_summaries t`, { spaceId: sql`t.id`, courseId: none }, inSpaces(sql`t.id`)),
        part(
          "course",
          "large",
          sql`course_items t`,
          { spaceId: sql`t.space_id`, courseId: none },
          sql`${inSpaces(sql`t.space_id`)} AND ${published(sql`t.status`)}`
        ),
        part(
          "lesson",
          "large",
          sql`lesson_titles t JOIN course_items c ON c.community_id = t.community_id AND c.id = t.course_id`,
          { spaceId: sql`c.space_id`, courseId: sql`t.course_id` },
          sql`${inSpaces(sql`c.space_id`)} AND ${published(sql`c.status`)}`
        ),
        part(
          "event",
          "large",
          sql`event_items t`,
          { spaceId: sql`t.space_id`, courseId: none },
          sql`t.deleted_at IS NULL AND t.hidden_at IS NULL AND ${inSpaces(sql`t.space_id`)}`
        ),
        part(
          "content",
          "large",
          sql`content_post_items t`,
          { spaceId: sql`t.space_id`, courseId: none },
          sql`t.deleted_at IS NULL AND t.hidden_at IS NULL AND ${inSpaces(sql`t.space_id`)}`
        )
      ]
      // A bitmap scan reads every match before the LIMIT, and the planner picks one when it expects few
      // matches (it cannot tell a common word from a rare one): only plain index scans, in this transaction.
      return sql`SET LOCAL enable_bitmapscan = off`.pipe(
        Effect.zipRight(sql`SELECT * FROM (${unionAll(parts)}) r
          ORDER BY r.score DESC, length(r.title), r.type, r.id LIMIT ${limit}`),
        sql.withTransaction,
        Effect.orDie,
        Effect.flatMap(decodeResults)
      )
    }

    return { search }
  })
}) {}
