import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, type ParseResult, Schema } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import { decodeRow, decodeRows } from "../domain/Rows"
import {
  type FeedItemType,
  feedItemTypes,
  type FeedScope,
  limitLiteral,
  makeFeedSources,
  scopeOfSpaceIds,
  typeLiteral,
  withFeedSpaces
} from "./sources"

/** An item of the feed as its statements read it (decoded once, at the boundary). */
export const FeedItemRow = Schema.Struct({
  type: Schema.Literal(...feedItemTypes),
  id: Schema.String,
  title: Schema.NullOr(Schema.String),
  excerpt: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String),
  authorProfileId: Schema.NullOr(Schema.String),
  authorName: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  /** `created_at` with microseconds, ISO 8601 UTC: the keyset of the stream. */
  cursorTime: Schema.String,
  pinned: Schema.Boolean,
  /** The reaction types the item has, in order (`null` when none), and how many of each. */
  reactionTypes: Schema.NullOr(Schema.Array(Schema.String)),
  reactionCounts: Schema.NullOr(Schema.Array(Schema.Number)),
  commentCount: Schema.Number
})
export type FeedItemRow = typeof FeedItemRow.Type

const decodeItems = decodeRows(FeedItemRow)
const decodeRanked = decodeRows(Schema.Struct({ ...FeedItemRow.fields, score: Schema.Number }))
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeCount = decodeRows(Schema.Struct({ n: Schema.Number }))

/** The last item seen: (time, type, id) in the stream's order (all descending). */
export interface FeedKey {
  readonly time: string
  readonly type: FeedItemType
  readonly id: string
}

/** Where a page starts: after the last item of the previous page, pinned or not. */
export interface FeedAfter {
  readonly pinned: boolean
  readonly key: FeedKey
}

export const FeedStatsRow = Schema.Struct({
  status: Schema.Number,
  content: Schema.Number,
  course: Schema.Number,
  event: Schema.Number,
  members: Schema.Number,
  posts7: Schema.Number,
  posts30: Schema.Number,
  comments7: Schema.Number,
  comments30: Schema.Number,
  reactions7: Schema.Number,
  reactions30: Schema.Number
})
export type FeedStatsRow = typeof FeedStatsRow.Type

const decodeStats = decodeRow(FeedStatsRow)

/** The item types reactions and comments may have on a feed item (reactions also go on comments). */
const itemTypes = (sql: SqlClient.SqlClient) => sql.in("item_type", feedItemTypes)

/** SQL of the feed: the mixed stream with its pins, counts, stats and recommendations. */
export class FeedRepo extends Effect.Service<FeedRepo>()("@roda/core/FeedRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const unionAll = sql.join(" UNION ALL ", false)
    const feedSources = makeFeedSources(sql)

    /**
     * The items of `inner` (as `x`) with their author's name, their reactions by type and their
     * comment count, in `order`: per item, index lookups on (community_id, item_type, item_id).
     */
    const withCounts = <A extends FeedItemRow>(
      scope: FeedScope,
      inner: Statement.Fragment,
      order: Statement.Fragment,
      decode: (rows: unknown) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>
    ) => {
      const communityId = scope.communityId
      const body = sql`SELECT x.*, p.full_name AS author_name, rc.reaction_types, rc.reaction_counts,
          (SELECT count(*)::int FROM comment_activity cm WHERE cm.community_id = ${communityId} AND cm.item_type = x.type
            AND cm.item_id = x.id AND cm.deleted_at IS NULL AND cm.hidden_at IS NULL) AS comment_count
        FROM (${inner}) x
        LEFT JOIN member_cards p ON p.community_id = ${communityId} AND p.id = x.author_profile_id
        LEFT JOIN LATERAL (SELECT array_agg(r.type ORDER BY r.type) AS reaction_types,
            array_agg(r.n ORDER BY r.type) AS reaction_counts
          FROM (SELECT rx.type, count(*)::int AS n FROM reaction_activity rx WHERE rx.community_id = ${communityId}
            AND rx.item_type = x.type AND rx.item_id = x.id GROUP BY rx.type) r) rc ON TRUE
        ORDER BY ${order}`
      return withFeedSpaces(sql, scope, body).pipe(Effect.flatMap(decode), Effect.orDie)
    }

    /** The stream's order: time, then type, then id, all descending. */
    const streamOrder = (alias: string) =>
      sql`${sql(alias)}.created_at DESC, ${sql(alias)}.type DESC, ${sql(alias)}.id DESC`

    /**
     * Unpinned items after `after`. Each type is its own subquery with the keyset condition and
     * `ORDER BY time DESC, id DESC LIMIT n`, served by its (community_id, time DESC, id DESC) index;
     * the outer query merges at most 4n rows.
     */
    const stream = (scope: FeedScope, after: FeedKey | undefined, limit: number) => {
      const sources = feedSources(scope)
      const parts = feedItemTypes.map((type) => {
        const source = sources[type]
        const keyset = after === undefined
          ? sql`TRUE`
          : type < after.type
          ? sql`${source.time} <= ${after.time}::timestamptz`
          : type === after.type
          ? sql`(${source.time}, t.id) < (${after.time}::timestamptz, ${after.id}::uuid)`
          : sql`${source.time} < ${after.time}::timestamptz`
        return sql`(${source.select} WHERE ${source.where} AND ${keyset}
          AND NOT EXISTS (SELECT 1 FROM pins pn WHERE pn.community_id = t.community_id
            AND pn.item_type = ${typeLiteral(sql, type)} AND pn.item_id = t.id)
          ORDER BY ${source.time} DESC, t.id DESC LIMIT ${limitLiteral(sql, limit)})`
      })
      return sql`SELECT s.*, FALSE AS pinned FROM (${unionAll(parts)}) s`
    }

    /**
     * Pinned items after `after` (pins are few: every pinned item is read, then ordered). Guarded by
     * an uncorrelated EXISTS, a one-time filter: without pins the branches are not run.
     */
    const pinned = (scope: FeedScope, after: FeedKey | undefined) => {
      const sources = feedSources(scope)
      const parts = feedItemTypes.map((type) =>
        sql`(${sources[type].select} JOIN pins pn ON pn.community_id = t.community_id
          AND pn.item_type = ${typeLiteral(sql, type)} AND pn.item_id = t.id WHERE ${sources[type].where})`
      )
      const keyset = after === undefined
        ? sql`TRUE`
        : sql`(y.created_at, y.type, y.id) < (${after.time}::timestamptz, ${after.type}::text, ${after.id}::uuid)`
      return sql`SELECT y.*, TRUE AS pinned FROM (${unionAll(parts)}) y WHERE ${keyset}
        AND EXISTS (SELECT 1 FROM pins WHERE community_id = ${scope.communityId})`
    }

    return {
      /**
       * A page of the feed in one statement: pins first (only on a page that starts among them),
       * then the stream, `limit` items with their counts.
       */
      page: (scope: FeedScope, after: FeedAfter | undefined, limit: number) => {
        const items = after === undefined
          ? sql`(${pinned(scope, undefined)}) UNION ALL (${stream(scope, undefined, limit)})`
          : after.pinned
          ? sql`(${pinned(scope, after.key)}) UNION ALL (${stream(scope, undefined, limit)})`
          : stream(scope, after.key, limit)
        const rows = limitLiteral(sql, limit)
        return withCounts(
          scope,
          sql`SELECT z.* FROM (${items}) z ORDER BY z.pinned DESC, ${streamOrder("z")} LIMIT ${rows}`,
          sql`x.pinned DESC, ${streamOrder("x")}`,
          decodeItems
        )
      },
      /** The item, when this scope sees it. */
      find: (scope: FeedScope, type: FeedItemType, id: string) => {
        const source = feedSources(scope)[type]
        const body = sql`${source.select} WHERE ${source.where} AND t.id = ${id}`
        return withFeedSpaces(sql, scope, body).pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )
      },
      pin: (communityId: CommunityId, type: FeedItemType, id: string, by: string, at: Date) =>
        sql`INSERT INTO pins (community_id, item_type, item_id, pinned_by, pinned_at)
          VALUES (${communityId}, ${type}, ${id}, ${by}, ${at}) ON CONFLICT DO NOTHING`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      unpin: (communityId: CommunityId, type: FeedItemType, id: string) =>
        sql`DELETE FROM pins WHERE community_id = ${communityId} AND item_type = ${type} AND item_id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      isPinned: (communityId: CommunityId, type: FeedItemType, id: string) =>
        sql`SELECT count(*)::int AS n FROM pins
          WHERE community_id = ${communityId} AND item_type = ${type} AND item_id = ${id}`.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
          Effect.orDie
        ),
      /** The scope of readable spaces already read (`Access.readableSpaceIds`), for `stats`. */
      scopeOfSpaces: (communityId: string, statusPosts: boolean, spaceIds: ReadonlyArray<string>) =>
        scopeOfSpaceIds(sql, communityId, statusPosts, spaceIds),
      stats: (scope: FeedScope, since7: Date, since30: Date) => {
        const s = feedSources(scope)
        const c = scope.communityId
        const count = (type: FeedItemType) => sql`(SELECT count(*)::int FROM ${s[type].from} WHERE ${s[type].counted})`
        /** The posts of a type, of the last 30 and the last 7 days: one pass. */
        const posts = (type: "status" | "content") => {
          const source = s[type]
          return sql`SELECT count(*)::int AS n, (count(*) FILTER (WHERE t.created_at >= ${since30}))::int AS n30,
            (count(*) FILTER (WHERE t.created_at >= ${since7}))::int AS n7 FROM ${source.from} WHERE ${source.counted}`
        }
        // Only on items this scope sees: how busy a hidden space is, is not for those it is hidden from.
        // Activity is grouped by item first, then each item is looked up by id (one branch runs per item).
        const seen = unionAll(feedItemTypes.map((type) => {
          const byId = sql`g.item_type = ${typeLiteral(sql, type)} AND t.id = g.item_id`
          return sql`(SELECT 1 FROM ${s[type].from} WHERE ${byId} AND ${s[type].where})`
        }))
        const since = (kind: "comment" | "reaction", from: Date) =>
          sql`(count(*) FILTER (WHERE a.kind = ${sql.literal(`'${kind}'`)} AND a.created_at >= ${from}))::int`
        const activity = sql`SELECT coalesce(sum(g.comments7), 0)::int AS comments7,
            coalesce(sum(g.comments30), 0)::int AS comments30, coalesce(sum(g.reactions7), 0)::int AS reactions7,
            coalesce(sum(g.reactions30), 0)::int AS reactions30
          FROM (SELECT a.item_type, a.item_id, ${since("comment", since7)} AS comments7,
              ${since("comment", since30)} AS comments30, ${since("reaction", since7)} AS reactions7,
              ${since("reaction", since30)} AS reactions30
            FROM (SELECT 'comment' AS kind, item_type, item_id, created_at FROM comment_activity
                WHERE community_id = ${c} AND deleted_at IS NULL AND hidden_at IS NULL AND created_at >= ${since30}
              UNION ALL
              SELECT 'reaction', item_type, item_id, created_at FROM reaction_activity
                WHERE community_id = ${c} AND ${itemTypes(sql)} AND created_at >= ${since30}) a
            GROUP BY a.item_type, a.item_id) g
          WHERE EXISTS (${seen})`
        const body = sql`SELECT st.n AS status, ct.n AS content, ${count("course")} AS course,
          ${count("event")} AS event,
          (SELECT count(*)::int FROM member_cards WHERE community_id = ${c} AND removed_at IS NULL
            AND status = 'active') AS members,
          st.n7 + ct.n7 AS posts7, st.n30 + ct.n30 AS posts30,
          ac.comments7, ac.comments30, ac.reactions7, ac.reactions30
          FROM (${posts("status")}) st, (${posts("content")}) ct, (${activity}) ac`
        return withFeedSpaces(sql, scope, body).pipe(
          Effect.flatMap((rows) => decodeStats(rows[0])),
          Effect.orDie
        )
      },
      /**
       * Items with reactions or comments since `since`, ranked by how many, without those
       * `profileId` reacted to or commented on.
       */
      recommendations: (scope: FeedScope, profileId: ProfileId, since: Date, limit: number) => {
        const sources = feedSources(scope)
        // Each ranked item is looked up by id in its own table (one branch runs per row); in order of
        // score, so the incremental sort stops after the groups of the best scores.
        const item = unionAll(feedItemTypes.map((type) => {
          const byId = sql`r.item_type = ${typeLiteral(sql, type)} AND t.id = r.item_id`
          return sql`(${sources[type].select} WHERE ${byId} AND ${sources[type].where})`
        }))
        const c = scope.communityId
        const ranked = sql`WITH activity AS (
            SELECT item_type, item_id FROM reaction_activity
              WHERE community_id = ${c} AND ${itemTypes(sql)} AND created_at >= ${since}
            UNION ALL
            SELECT item_type, item_id FROM comment_activity
              WHERE community_id = ${c} AND deleted_at IS NULL AND hidden_at IS NULL AND created_at >= ${since}
          ), ranked AS (
            SELECT item_type, item_id, count(*)::int AS score FROM activity GROUP BY item_type, item_id
          )
          SELECT x.*, (pn.item_id IS NOT NULL) AS pinned, r.score
          FROM (SELECT * FROM ranked ORDER BY score DESC) r
          CROSS JOIN LATERAL (${item}) x
          LEFT JOIN pins pn ON pn.community_id = ${c} AND pn.item_type = r.item_type AND pn.item_id = r.item_id
          WHERE NOT EXISTS (SELECT 1 FROM reaction_activity me WHERE me.community_id = ${c}
              AND me.item_type = r.item_type AND me.item_id = r.item_id AND me.profile_id = ${profileId})
            AND NOT EXISTS (SELECT 1 FROM comment_activity me WHERE me.community_id = ${c}
              AND me.item_type = r.item_type AND me.item_id = r.item_id AND me.author_profile_id = ${profileId}
              AND me.deleted_at IS NULL)
          ORDER BY r.score DESC, x.created_at DESC, x.id DESC LIMIT ${limitLiteral(sql, limit)}`
        const order = sql`x.score DESC, x.created_at DESC, x.id DESC`
        return withCounts(scope, ranked, order, decodeRanked)
      }
    }
  })
}) {}
