import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Forbidden, InvalidInput, NotFound, RateLimited, Unauthenticated } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, HttpUrl, Name, Trimmed } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { DeferredMemberScope, MemberScope, PublicScope } from "../http/Security"
import { commentableTypes, MAX_ATTACHMENTS, MAX_BODY, reactionTypes } from "./kinds"

const ReactionTypeSchema = OneOf(...reactionTypes)
const Counts = Schema.Struct(
  Object.fromEntries(reactionTypes.map((type) => [type, Schema.Number])) as {
    [K in typeof reactionTypes[number]]: typeof Schema.Number
  }
)
const Author = Schema.Struct({ id: Schema.String, fullName: Schema.String, avatarUrl: Schema.NullOr(Schema.String) })
const Mention = Schema.Struct({ profileId: Schema.String, fullName: Schema.String })

const engagement = {
  pending: Schema.Boolean.annotations({
    description:
      "Held for approval by the community's `moderation` settings (`holdFirstPosts`, `blockedWords`): only its author and staff read it until `POST /api/moderation/pending/{id}/approve`; out of the feed, search, counts and notifications"
  }),
  mentions: Schema.Array(Mention),
  reactions: Counts,
  reactionCount: Schema.Number,
  myReaction: Schema.NullOr(ReactionTypeSchema)
}

export const StatusPost = Schema.Struct({
  id: Schema.String,
  author: Author,
  body: Schema.String,
  hidden: Schema.Boolean.annotations({
    description:
      "Hidden by a moderator (`POST /api/moderation/cases/{id}/resolve`, action `hide`): only its author and staff read it; it is out of the feed, search and counts"
  }),
  ...engagement,
  commentCount: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

/** `POST /api/status`'s answer (201). */
export const StatusCreated = Ok(StatusPost)

export const ContentPost = Schema.Struct({
  id: Schema.String,
  spaceId: Schema.String,
  author: Author,
  title: Schema.String,
  body: Schema.String,
  attachments: Schema.Array(Schema.String),
  hidden: Schema.Boolean.annotations({
    description:
      "Hidden by a moderator (`POST /api/moderation/cases/{id}/resolve`, action `hide`): only its author and staff read it; it is out of the feed, search and counts"
  }),
  ...engagement,
  commentCount: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const Comment = Schema.Struct({
  id: Schema.String,
  itemType: OneOf(...commentableTypes),
  itemId: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  author: Author,
  body: Schema.String,
  hidden: Schema.Boolean.annotations({
    description: "Hidden by a moderator: listed only to its author and staff, and out of the counts"
  }),
  ...engagement,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const ReactionState = Schema.Struct({
  itemType: Schema.String,
  itemId: Schema.String,
  reaction: Schema.NullOr(ReactionTypeSchema),
  reactions: Counts,
  reactionCount: Schema.Number
})

const PostBody = Name(MAX_BODY)
export const StatusInput = Body({ body: PostBody })
export const ReactionInput = Body({ type: ReactionTypeSchema })
export const CommentInput = Body({ body: PostBody, parentId: Schema.optional(Schema.NullOr(Uuid)) })
export const CommentChanges = Body({ body: PostBody })
export const ContentInput = Body({
  spaceId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
  title: Name(200),
  body: Trimmed(100_000, "must be between 1 and 100000 characters").pipe(
    Schema.filter((value) =>
      (value.length >= 1 && value.length <= 100_000) || "must be between 1 and 100000 characters"
    )
  ),
  attachments: Schema.optional(Schema.Array(HttpUrl).pipe(Schema.maxItems(MAX_ATTACHMENTS)))
})

const MENTIONS =
  "Mentions: write `@[Full Name](profileId)` (or a bare `@profileId`) in the body; ids of profiles of this community are resolved and returned in `mentions` (at most 50 per body), anything else stays plain text."
const REACTIONS =
  "Reaction types: like, love, celebrate, insightful, funny (400 otherwise). One reaction per person (the X-ProfileId profile when acting) per item: the same type again removes it, another type replaces it. Answers the new state: `reaction` (the caller's, or null), counts by type and `reactionCount`."
const AUTHOR_OR_STAFF = "The author, or owner, admin or moderator (others 403)."
const AUTHOR_OR_STAFF_EDITS =
  `${AUTHOR_OR_STAFF} An owner's words are edited only by an owner (403 \`Função necessária: owner. Sua função: …\`), as only an owner may act as an owner (X-ProfileId); staff still remove them. A member's edit whose new text has one of the community's \`moderation.blockedWords\` waits for approval as a new post would (answered with \`pending: true\`; see \`GET /api/moderation/pending\`).`

const StatusIdParam = Schema.Struct({ id: Uuid })
const CommentParams = Schema.Struct({ statusId: Uuid, commentId: Uuid })

export class StatusApi extends HttpApiGroup.make("status")
  .annotateContext(OpenApi.annotations({
    title: "Status posts",
    description: "Community-wide status posts with reactions and threaded comments."
  }))
  .add(
    HttpApiEndpoint.put("update", "/status/:id")
      .setPath(StatusIdParam)
      .setPayload(StatusInput)
      .addSuccess(Ok(StatusPost))
      .addError(declared(Forbidden, "author_or_staff_required", "role_required"))
      .addError(declared(NotFound, "status_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${AUTHOR_OR_STAFF_EDITS} Replaces the body (mentions are resolved again).`)
      .annotate(OpenApi.Summary, "Edit a status post")
  )
  .add(
    HttpApiEndpoint.del("remove", "/status/:id")
      .setPath(StatusIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "author_or_staff_required"))
      .addError(declared(NotFound, "status_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${AUTHOR_OR_STAFF} Soft delete: the post disappears from lists and the feed.`)
      .annotate(OpenApi.Summary, "Delete a status post")
  )
  .add(
    HttpApiEndpoint.post("react", "/status/:id/react")
      .setPath(StatusIdParam)
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
      .annotate(OpenApi.Description, `Member. ${REACTIONS}`)
      .annotate(OpenApi.Summary, "React to a status post")
  )
  .add(
    HttpApiEndpoint.post("comment", "/status/:id/comment")
      .setPath(StatusIdParam)
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
        `Member. \`body\` 1 to 5000 characters. Replies are one level deep: \`parentId\` must name a top-level comment of the same post; a reply to a reply, or a comment of another item, answers 400 (param \`parentId\`); an unknown or deleted parent 404. ${MENTIONS}`
      )
      .annotate(OpenApi.Summary, "Comment on a status post")
  )
  .add(
    HttpApiEndpoint.get("comments", "/status/:id/comments")
      .setPath(StatusIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Comment))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "space_content_forbidden"))
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
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Member. Comments in threads, oldest first: each top-level comment followed by its replies (`parentId` set), each with reactions by type and the caller's own. Keyset pagination (`limit`, `cursor`)."
      )
      .annotate(OpenApi.Summary, "List a status post's comments")
  )
  .add(
    HttpApiEndpoint.put("updateComment", "/status/:statusId/comment/:commentId")
      .setPath(CommentParams)
      .setPayload(CommentChanges)
      .addSuccess(Ok(Comment))
      .addError(declared(Forbidden, "author_or_staff_required", "role_required", "space_content_forbidden"))
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
      .annotate(OpenApi.Description, `${AUTHOR_OR_STAFF_EDITS} A comment not of that post: 404.`)
      .annotate(OpenApi.Summary, "Edit a comment")
  )
  .add(
    HttpApiEndpoint.del("removeComment", "/status/:statusId/comment/:commentId")
      .setPath(CommentParams)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "author_or_staff_required", "space_content_forbidden"))
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
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${AUTHOR_OR_STAFF} Soft delete; a top-level comment takes its replies with it.`)
      .annotate(OpenApi.Summary, "Delete a comment")
  )
  .add(
    HttpApiEndpoint.post("reactToComment", "/status/:statusId/comment/:commentId/react")
      .setPath(CommentParams)
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
        `Member. Adds, changes or removes the caller's reaction on a comment of that post. ${REACTIONS}`
      )
      .annotate(OpenApi.Summary, "React to a comment")
  )
  .middlewareEndpoints(MemberScope)
  .add(
    HttpApiEndpoint.post("create", "/status")
      .setPayload(StatusInput)
      .addSuccess(StatusCreated, { status: 201 })
      .addError(declared(InvalidInput, "community_header_missing", "community_mismatch", "invalid_input"))
      .addError(declared(Unauthenticated, "token_invalid", "token_required"))
      .addError(
        declared(
          Forbidden,
          "acting_profile_forbidden",
          "api_key_other_community",
          "api_key_route_refused",
          "api_key_scope_missing",
          "member_suspended",
          "not_member"
        )
      )
      .addError(declared(NotFound, "acting_profile_not_found"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "posting")
      // The membership is read in the post's own insert: one statement (spec order of answers kept).
      .middleware(DeferredMemberScope)
      .annotate(
        OpenApi.Description,
        `Member. A community-wide status post (no space) by the caller (the X-ProfileId profile when acting). \`body\`: 1 to 5000 characters after trimming. ${MENTIONS}`
      )
      .annotate(OpenApi.Summary, "Post a status")
  )
  .add(
    HttpApiEndpoint.get("list", "/status")
      .setUrlParams(PageQuery)
      .addSuccess(Page(StatusPost))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). Status posts of the community, newest first (keyset pagination: `limit`, `cursor`), each with its author (id, fullName, avatarUrl), reactions by type, `reactionCount`, `commentCount`, the caller's own reaction (`myReaction`) and resolved `mentions`. Status posts are community-wide: members see them all; anonymous visitors (or tokens of non-members) see them only when the community setting `publicStatusPosts` is true, otherwise an empty page. A post hidden by a moderator is listed only to its author and staff (`hidden: true`); a removed one to nobody."
      )
      .annotate(OpenApi.Summary, "List status posts")
  )
  .prefix("/api")
{}

export class ContentApi extends HttpApiGroup.make("content")
  .annotateContext(OpenApi.annotations({
    title: "Content",
    description: "Posts in feed spaces."
  }))
  .add(
    HttpApiEndpoint.post("create", "/content")
      .setPayload(ContentInput)
      .addSuccess(Ok(ContentPost), { status: 201 })
      .addError(declared(InvalidInput, "not_a_feed_space", "space_id_required", "space_not_found"))
      .addError(declared(Forbidden, "member_suspended", "posting_staff_only", "space_content_forbidden"))
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
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `Member. A post in a space whose module is \`feed\`: \`title\` (1 to 200), \`body\` (1 to 100000), optional \`attachments\` (at most ${MAX_ATTACHMENTS} http(s) URLs). Like courses: no \`spaceId\` 400 \`ID do espaço é obrigatório.\`; a space unknown, of another community or hidden from the caller 400 \`Espaço não encontrado ou não pertence a esta comunidade.\`; a space of another module 400. The caller must be able to read the space's content (403) and, when the space's \`postingPolicy\` is \`staff\`, be owner, admin or moderator (403). Slow mode (community setting \`moderation.slowModeSeconds\`): a member who is not staff and posted in this space less than that many seconds ago answers 429 with \`Retry-After\` (seconds left) and \`RateLimit-Policy: "slowMode";q=1;w=<seconds>\`; of two posts at once, one passes. ${MENTIONS} Read content posts through the feed or \`GET /api/content/{id}\`.`
      )
      .annotate(OpenApi.Summary, "Create a content post")
  )
  .add(
    HttpApiEndpoint.get("detail", "/content/:id")
      .setPath(Schema.Struct({ id: Uuid }))
      .addSuccess(Ok(ContentPost))
      .addError(declared(Forbidden, "space_content_forbidden"))
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
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). A content post with reactions by type, comment count, the caller's reaction and mentions, subject to the access rules of its space (404 hidden, 403 gated)."
      )
      .annotate(OpenApi.Summary, "Get a content post")
  )
  .prefix("/api")
{}
