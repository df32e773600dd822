import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Forbidden, InvalidInput, NotFound, RateLimited } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { MAX_LIMIT, PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope, PublicScope } from "../http/Security"
import { Comment, CommentInput, ReactionInput, ReactionState } from "../social/Api"
import { feedItemTypes } from "./sources"

export const FeedItemTypeSchema = OneOf(...feedItemTypes)

export const FeedItem = Schema.Struct({
  type: FeedItemTypeSchema,
  id: Schema.String,
  title: Schema.NullOr(Schema.String),
  excerpt: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String),
  author: Schema.NullOr(Schema.Struct({ profileId: Schema.String, fullName: Schema.NullOr(Schema.String) })),
  createdAt: Schema.String,
  pinned: Schema.Boolean,
  reactions: Schema.Record({ key: Schema.String, value: Schema.Number }),
  reactionCount: Schema.Number,
  commentCount: Schema.Number
})

/** A page of the feed, as `GET /api/feed` answers it. */
export const FeedPage = Page(FeedItem)

const Activity = Schema.Struct({ posts: Schema.Number, comments: Schema.Number, reactions: Schema.Number })

const FeedStats = Schema.Struct({
  counts: Schema.Struct({ status: Schema.Number, content: Schema.Number, course: Schema.Number, event: Schema.Number }),
  total: Schema.Number,
  members: Schema.Number,
  activity: Schema.Struct({ last7Days: Activity, last30Days: Activity })
})

/** `{type}/{id}` of a feed item: an unknown type or a malformed id answers 400 (location `params`). */
export const FeedItemParams = Schema.Struct({ type: FeedItemTypeSchema, id: Uuid })

const TopQuery = Schema.Struct({ limit: PageQuery.fields.limit })

export class FeedApi extends HttpApiGroup.make("feed")
  .annotateContext(OpenApi.annotations({
    title: "Feed",
    description:
      "One stream of what the caller may see (status posts, content, courses, events), with pins, reactions and comments."
  }))
  .add(
    HttpApiEndpoint.get("recommendations", "/feed/recommendations")
      .setUrlParams(TopQuery)
      .addSuccess(Ok(Schema.Array(Schema.Struct({ ...FeedItem.fields, score: Schema.Number }))))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `Member. Up to \`limit\` items (default 20, max ${MAX_LIMIT}) the caller (the X-ProfileId profile when acting) has not reacted to or commented on, ranked by engagement in the last 7 days (\`score\` = reactions + comments since then), then newest. Only items the caller may read (the feed's rules). Items without recent engagement are not recommended.`
      )
      .annotate(OpenApi.Summary, "Get feed recommendations")
  )
  .add(
    HttpApiEndpoint.put("pin", "/feed/:type/:id/pin")
      .setPath(FeedItemParams)
      .setPayload(Body({ pinned: Schema.Boolean }))
      .addSuccess(Ok(Schema.Struct({ type: FeedItemTypeSchema, id: Schema.String, pinned: Schema.Boolean })))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "feed_item_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Pins (`pinned: true`) or unpins an item; idempotent. `type`: status, content, course, event (400 otherwise); the item must exist in this community (404; a draft course or a removed post is not a feed item)."
      )
      .annotate(OpenApi.Summary, "Pin or unpin a feed item")
  )
  .add(
    HttpApiEndpoint.post("react", "/feed/:type/:id/react")
      .setPath(FeedItemParams)
      .setPayload(ReactionInput)
      .addSuccess(Ok(ReactionState))
      .addError(declared(Forbidden, "member_suspended", "space_content_forbidden"))
      .addError(
        declared(
          NotFound,
          "comment_not_found",
          "content_not_found",
          "course_not_found",
          "social_item_not_found",
          "space_unknown",
          "status_not_found"
        )
      )
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Member. Reacts to any feed item (status, content, course, event): one reaction per person and item; the same type again removes it, another type replaces it. The item must be readable by the caller (404 hidden or of another community, 403 gated)."
      )
      .annotate(OpenApi.Summary, "React to a feed item")
  )
  .add(
    HttpApiEndpoint.post("comment", "/feed/:type/:id/comment")
      .setPath(FeedItemParams)
      .setPayload(CommentInput)
      .addSuccess(Ok(Comment), { status: 201 })
      .addError(declared(InvalidInput, "parent_other_item", "reply_depth"))
      .addError(declared(Forbidden, "member_suspended", "space_content_forbidden"))
      .addError(
        declared(
          NotFound,
          "comment_not_found",
          "content_not_found",
          "course_not_found",
          "social_item_not_found",
          "space_unknown",
          "status_not_found"
        )
      )
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "posting")
      .annotate(
        OpenApi.Description,
        "Member. Comments on any feed item; `parentId` replies to a top-level comment of the same item (one level deep). Same readability rules as reacting."
      )
      .annotate(OpenApi.Summary, "Comment on a feed item")
  )
  .middlewareEndpoints(MemberScope)
  .add(
    HttpApiEndpoint.get("list", "/feed")
      .setUrlParams(PageQuery)
      .addSuccess(FeedPage)
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). One stream of status posts (community-wide, like `GET /api/status`), content posts and events of spaces whose content the caller may read, and published courses of such spaces. Pinned items first, then newest: `createdAt` is when the item was posted (for a course, when it was published); ties break by type, then id, all descending. Keyset pagination over the whole stream (`limit`, `cursor`); a page never repeats an item of an earlier one. Each item carries its reactions by type, `reactionCount` and `commentCount`."
      )
      .annotate(OpenApi.Summary, "Get the community feed")
  )
  .add(
    HttpApiEndpoint.get("stats", "/feed/stats")
      .addSuccess(Ok(FeedStats))
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). Items the caller may see by type (the feed's rules), active members of the community, and activity in the last 7 and 30 days: posts (status and content posts), comments and reactions, all counted only on feed items the caller may see (activity on hidden items is not told). The figures may be up to N seconds old, N being the server's `FEED_STATS_MAX_AGE_SECONDS` (default 60; 0 counts on every request): each server process counts them at most once per N seconds per community and reader scope (the spaces and items the caller may read; callers who may read the same share the figures, never those of a wider scope) and answers from memory in between, so a new post or comment may show only after that."
      )
      .annotate(OpenApi.Summary, "Get feed statistics")
  )
  .prefix("/api")
{}
