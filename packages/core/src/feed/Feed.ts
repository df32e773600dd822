import { Clock, Effect, Schema } from "effect"
import { notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { CursorPart, DEFAULT_LIMIT, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { FEED_STATS_MAX_AGE_SECONDS_DEFAULT, Options } from "../platform/Options"
import { traced } from "../platform/traced"
import { SocialItems } from "../social/items"
import { Access, type Viewer, viewerOfMember } from "../structure/Access"
import { feedMessages as M } from "./messages"
import { FeedRepo } from "./Repo"
import { type FeedItemType, feedItemTypes, type FeedScope } from "./sources"
import { servedPerScope, StatsScope } from "./statsCache"
import { itemView } from "./view"

const DAY = 24 * 60 * 60 * 1000

/** [pinned (1) or not (0), time with microseconds, type, id]: the last item of a page. */
const FeedCursor = Schema.Tuple(
  Schema.Literal(0, 1),
  CursorPart.timestamp,
  Schema.Literal(...feedItemTypes),
  Uuid
)

/** The feed: one stream of every item type the viewer may read, pins first; stats; recommendations; pins. */
export class Feed extends Effect.Service<Feed>()("@roda/core/Feed", {
  effect: Effect.gen(function*() {
    const repo = yield* FeedRepo
    const access = yield* Access
    const items = yield* SocialItems
    const options = yield* Options

    /** Status posts follow `GET /api/status` (SocialItems); the rest lives in readable spaces. */
    const scopeOf = (viewer: Viewer) =>
      Effect.zipWith(
        access.readableSpaces(viewer),
        items.statusPostsVisible(viewer),
        (spaces, statusPosts): FeedScope => ({ communityId: viewer.communityId, spaces, statusPosts })
      )

    /** One statement per page: readable spaces, pins, the stream and the counts. */
    const list = traced("Feed.list")(function*(viewer: Viewer, query: PageQuery) {
      const page = yield* paginate(
        query,
        FeedCursor,
        (after, limit) =>
          Effect.flatMap(scopeOf(viewer), (scope) =>
            repo.page(
              scope,
              after === undefined
                ? undefined
                : { pinned: after[0] === 1, key: { time: after[1], type: after[2], id: after[3].toLowerCase() } },
              limit + 1
            )),
        (row) => [row.pinned ? 1 : 0, row.cursorTime, row.type, row.id]
      )
      return { items: page.items.map(itemView), pagination: page.pagination }
    })

    /** The figures of a scope, counted now (`stats` serves them at most `feedStatsMaxAgeSeconds` old). */
    const count = traced("Feed.statsCount")(function*(scope: StatsScope) {
      const now = yield* Clock.currentTimeMillis
      const row = yield* repo.stats(
        repo.scopeOfSpaces(scope.communityId, scope.statusPosts, scope.spaceIdList),
        new Date(now - 7 * DAY),
        new Date(now - 30 * DAY)
      )
      return {
        counts: { status: row.status, content: row.content, course: row.course, event: row.event },
        total: row.status + row.content + row.course + row.event,
        members: row.members,
        activity: {
          last7Days: { posts: row.posts7, comments: row.comments7, reactions: row.reactions7 },
          last30Days: { posts: row.posts30, comments: row.comments30, reactions: row.reactions30 }
        }
      }
    })
    const served = yield* servedPerScope(
      options.feedStatsMaxAgeSeconds ?? FEED_STATS_MAX_AGE_SECONDS_DEFAULT,
      count
    )

    /** Keyed by what the viewer may read (not who they are): one count serves every viewer of a scope. */
    const stats = traced("Feed.stats")(function*(viewer: Viewer) {
      const spaceIds = yield* access.readableSpaceIds(viewer)
      const statusPosts = yield* items.statusPostsVisible(viewer)
      return yield* served(StatsScope.of(viewer.communityId, statusPosts, spaceIds))
    })

    const recommendations = traced("Feed.recommendations")(function*(member: Member, limit: number | undefined) {
      const viewer = viewerOfMember(member)
      const since = new Date((yield* Clock.currentTimeMillis) - 7 * DAY)
      const rows = yield* repo.recommendations(
        yield* scopeOf(viewer),
        member.actingProfileId,
        since,
        limit ?? DEFAULT_LIMIT
      )
      return rows.map((row) => ({ ...itemView(row), score: row.score }))
    })

    /** The item as the member may see it; 404 when it is of another community or unreadable. */
    const item = traced("Feed.item")(function*(member: Member, type: FeedItemType, id: string) {
      const found = yield* repo.find(yield* scopeOf(viewerOfMember(member)), type, id.toLowerCase())
      if (found._tag === "None") return yield* Effect.fail(notFound(M.feedItemNotFound))
      return found.value.id
    })

    const pin = traced("Feed.pin")(function*(member: Member, type: FeedItemType, id: string, pinned: boolean) {
      yield* requireRole(member, staffRoles)
      const itemId = yield* item(member, type, id)
      if (pinned) {
        yield* repo.pin(member.communityId, type, itemId, member.profileId, new Date(yield* Clock.currentTimeMillis))
      } else yield* repo.unpin(member.communityId, type, itemId)
      return { type, id: itemId, pinned }
    })

    return { list, stats, recommendations, item, pin }
  }),
  dependencies: [FeedRepo.Default, SocialItems.Default]
}) {}
