import type { SqlClient } from "@effect/sql"
import type { Statement } from "@effect/sql"

/** The feed item types, in the order the stream breaks ties on time (descending). */
export const feedItemTypes = ["status", "content", "course", "event"] as const
export type FeedItemType = typeof feedItemTypes[number]

/** What a viewer may see: the community, the spaces whose content they may read, and status posts. */
export interface FeedScope {
  readonly communityId: string
  /** A subquery selecting the ids of the readable spaces (`Access.readableSpaces`). */
  readonly spaces: Statement.Fragment
  readonly statusPosts: boolean
}

export interface FeedSource {
  readonly type: FeedItemType
  /** The column the item is ordered by (a course appears when it is published). */
  readonly time: Statement.Fragment
  /** `<table> t` */
  readonly from: Statement.Fragment
  /** `SELECT <the item columns> FROM <table> t`. */
  readonly select: Statement.Fragment
  /** Which rows of the table are items this scope sees (over `t`). */
  readonly where: Statement.Fragment
  /**
   * `where` for reading every item of the type (counts): the readable spaces hashed, rather than an
   * array searched row by row.
   */
  readonly counted: Statement.Fragment
}

/**
 * The item type as an SQL literal, not a parameter: the planner then knows each branch's type (the
 * counts' index lookups are estimated per type), and the statement's generic plan is as good as a
 * custom one, so a prepared page is not planned again on every execution. Only these four constants
 * are ever inlined.
 */
export const typeLiteral = (sql: SqlClient.SqlClient, type: FeedItemType) => {
  if (!feedItemTypes.includes(type)) throw new Error(`not a feed item type: ${String(type)}`)
  return sql.literal(`'${type}'`)
}

/**
 * A row count as an SQL literal, not a parameter: with `LIMIT $n` the generic plan assumes a tenth
 * of the table, costs far more than a custom plan, and PostgreSQL plans the page afresh on every
 * execution (1.5 ms of a 2 ms page). The limits are a few small integers, so few statement texts.
 */
export const limitLiteral = (sql: SqlClient.SqlClient, limit: number) => {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a row count: ${limit}`)
  return sql.literal(String(limit))
}

/**
 * A fixed source with the scope's condition, field by field: built on every page, and an object spread
 * there measurably raised what V8 copies into the old generation per request (more mark-compacts).
 */
const withWhere = (
  source: Omit<FeedSource, "where" | "counted">,
  where: Statement.Fragment,
  counted: Statement.Fragment
): FeedSource => ({
  type: source.type,
  time: source.time,
  from: source.from,
  select: source.select,
  where,
  counted
})

/**
 * One definition of every feed item type as SQL, each with the same columns: type, id, title,
 * excerpt, space_id, author_profile_id, created_at and cursor_time (the time with microseconds, for
 * keysets). The stream, pins, recommendations and lookups all build on these.
 *
 * Built once per client: what does not depend on the scope (the columns, tables and fixed
 * conditions, a few dozen fragments) is made here, and the function returned adds only the
 * community and the status-post switch, instead of rebuilding every fragment twice per page.
 */
export const makeFeedSources = (sql: SqlClient.SqlClient) => {
  // An array (an InitPlan), not `IN (SELECT …)`: a semi-join is planned from the estimate of the
  // readable spaces, which is one row for an anonymous visitor (the rules' `cardinality(…) = 0` are
  // guessed at 0.5% each), and then every post of every space was read and sorted for a page. As a
  // filter, the stream walks its (community_id, time DESC, id DESC) index whoever looks.
  const inSpaces = sql`t.space_id = ANY (ARRAY(SELECT id FROM feed_spaces))`
  // For counts: `IS TRUE` keeps it a hashed subplan, which no estimate of the spaces turns into an
  // index scan per space (one heap fetch per item); `space_id` is never null, so it is the same test.
  const inSpacesHashed = sql`(t.space_id IN (SELECT id FROM feed_spaces)) IS TRUE`
  const columns = (type: FeedItemType, time: Statement.Fragment) =>
    sql`${typeLiteral(sql, type)}::text AS type, t.id, ${time} AS created_at,
      to_char(${time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time`
  const time = { created: sql`t.created_at`, published: sql`t.published_at` }
  const fixed = {
    status: {
      type: "status",
      from: sql`status_post_items t`,
      time: time.created,
      select: sql`SELECT ${columns("status", time.created)}, NULL::text AS title, left(t.body, 280) AS excerpt,
        NULL::uuid AS space_id, t.author_profile_id FROM status_post_items t`
    },
    content: {
      type: "content",
      from: sql`content_post_items t`,
      time: time.created,
      select: sql`SELECT ${columns("content", time.created)}, t.title, left(t.body, 280) AS excerpt, t.space_id,
        t.author_profile_id FROM content_post_items t`
    },
    course: {
      type: "course",
      from: sql`course_items t`,
      time: time.published,
      select: sql`SELECT ${columns("course", time.published)}, t.title, left(t.description, 280) AS excerpt,
        t.space_id, t.created_by AS author_profile_id FROM course_items t`
    },
    event: {
      type: "event",
      from: sql`event_items t`,
      time: time.created,
      select: sql`SELECT ${columns("event", time.created)}, t.title, NULL::text AS excerpt, t.space_id,
        NULL::uuid AS author_profile_id FROM event_items t`
    }
  } as const
  // removed (`deleted_at`) and hidden by a moderator (`hidden_at`): out of the feed for everyone (events too)
  const statusWhere = sql`t.deleted_at IS NULL AND t.hidden_at IS NULL`
  const contentWhere = sql`t.deleted_at IS NULL AND t.hidden_at IS NULL`
  const courseWhere = sql`t.status = 'published' AND t.published_at IS NOT NULL`
  const eventWhere = sql`t.deleted_at IS NULL AND t.hidden_at IS NULL`
  const none = sql`FALSE`
  return (scope: FeedScope): Record<FeedItemType, FeedSource> => {
    const community = sql`t.community_id = ${scope.communityId}`
    const status = scope.statusPosts ? sql`${community} AND ${statusWhere}` : none
    const inSpace = (where: Statement.Fragment) =>
      [
        sql`${community} AND ${where} AND ${inSpaces}`,
        sql`${community} AND ${where} AND ${inSpacesHashed}`
      ] as const
    return {
      status: withWhere(fixed.status, status, status),
      content: withWhere(fixed.content, ...inSpace(contentWhere)),
      course: withWhere(fixed.course, ...inSpace(courseWhere)),
      event: withWhere(fixed.event, ...inSpace(eventWhere))
    }
  }
}

/**
 * The scope of readable spaces already read (`Access.readableSpaceIds`): one array parameter, so a
 * statement over it depends on nothing but these ids (the statistics are shared by every viewer of
 * the same scope), and does not run the access rules again.
 */
export const scopeOfSpaceIds = (
  sql: SqlClient.SqlClient,
  communityId: string,
  statusPosts: boolean,
  spaceIds: ReadonlyArray<string>
): FeedScope => ({
  communityId,
  statusPosts,
  spaces: sql`SELECT unnest(${`{${spaceIds.join(",")}}`}::uuid[]) AS id`
})

/**
 * `body` with the readable spaces as the CTE `feed_spaces` that `feedSources` reads: computed once
 * per statement, however many item types use it.
 */
export const withFeedSpaces = (
  sql: SqlClient.SqlClient,
  scope: FeedScope,
  body: Statement.Fragment
) => sql`WITH feed_spaces AS MATERIALIZED (${scope.spaces}) ${body}`
