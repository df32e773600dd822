import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { ParametersRefused, WriteRefused } from "../http/requestFailures"

const PendingItem = Schema.Struct({
  id: Schema.String,
  type: OneOf("status", "content", "comment"),
  author: Schema.Struct({ id: Schema.String, fullName: Schema.NullOr(Schema.String) }),
  excerpt: Schema.String.annotations({ description: "The first 280 characters (a content post: title, then body)" }),
  itemType: Schema.NullOr(Schema.String).annotations({ description: "A comment's item type; null for posts" }),
  itemId: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String).annotations({ description: "A content post's space" }),
  edited: Schema.Boolean.annotations({
    description: "Held by its author's edit of a published post or comment (`excerpt` is the edited text)"
  }),
  createdAt: Schema.String
})
const Decided = Schema.Struct({ ...PendingItem.fields, status: OneOf("approved", "rejected") })

const STAFF =
  "Owner, admin or moderator (403 `Função necessária: owner ou admin ou moderator. Sua função: …` otherwise)."
const HELD =
  "A post (status or content) or comment by a member who is not owner, admin or moderator waits for approval when it is among the member's first `holdFirstPosts` posts and comments (those never held or approved count), or when its text (a content post: title and body) has one of the `blockedWords` as a whole word, case and accents ignored (community settings `moderation`). Posting answers 201 with the item marked `pending: true`: only its author and staff read it; it is out of the feed, search, counts and notifications, and its mentions, followers' notifications and `post.created` / `comment.created` events wait for the approval. An edit is held too: a member's edit of a status post or comment (`PUT /api/status/{id}`, `PUT /api/status/{statusId}/comment/{commentId}`) whose new text has a blocked word (`holdFirstPosts` counts new posts only) answers 200 with the item as edited and `pending: true`, and the item waits as a new one would (its author and staff read it; out of the feed, lists, counts and search), listed here with `edited: true`; its mentions stay as they were until approval. Editing an item already waiting keeps it waiting. Content posts have no edit."

const PendingPath = Schema.Struct({ id: Uuid })
const decided = (name: string, what: string) =>
  `${STAFF} ${what} Written to the log (\`${name}\`, the caller as actor) in the same transaction. An id that is not waiting (decided already, also by another moderator at the same time: one decision, the other 404), unknown or of another community: 404 \`pending_not_found\`; not a UUID: 400 (\`param: id\`). Answers the item with \`status\`.`

export const pendingEndpoints = {
  list: HttpApiEndpoint.get("pending", "/moderation/pending")
    .setUrlParams(PageQuery)
    .addSuccess(Page(PendingItem))
    .addError(declared(InvalidInput, "invalid_input"))
    .addError(declared(Forbidden, "role_required"))
    .addError(ParametersRefused)
    .annotate(OpenApi.Summary, "Held posts and comments")
    .annotate(
      OpenApi.Description,
      `${STAFF} ${HELD} The community's waiting items, newest first (keyset: \`limit\`, \`cursor\`): \`id\`, \`type\` (\`status\`, \`content\`, \`comment\`), \`author\`, \`excerpt\`, a comment's \`itemType\` and \`itemId\`, a content post's \`spaceId\`, \`edited\`, \`createdAt\`.`
    ),
  approve: HttpApiEndpoint.post("approvePending", "/moderation/pending/:id/approve")
    .setPath(PendingPath)
    .addSuccess(Ok(Decided))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "pending_not_found"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .annotate(OpenApi.Summary, "Approve a held post or comment")
    .annotate(
      OpenApi.Description,
      decided(
        "approve",
        "The item becomes visible to everyone who may read it; its mentions, replies and the space's followers are notified and its `post.created` / `comment.created` event written then, with the approval. An approved edit (`edited: true`) shows its edited text and tells what an edit tells: those it newly mentions (no created event, no followers' or reply notifications: those were told when it was posted); a moderator's earlier hide stays."
      )
    ),
  reject: HttpApiEndpoint.post("rejectPending", "/moderation/pending/:id/reject")
    .setPath(PendingPath)
    .addSuccess(Ok(Decided))
    .addError(declared(Forbidden, "role_required"))
    .addError(declared(NotFound, "pending_not_found"))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .annotate(OpenApi.Summary, "Reject a held post or comment")
    .annotate(
      OpenApi.Description,
      decided(
        "reject",
        "The item is removed (read by no one, kept for the log); nobody is notified. A rejected edit (`edited: true`) removes the post or comment too, as the rejection of a new one does: its earlier text is not kept, so there is nothing to go back to; its author may post again. The notifications about it (reactions, mentions, replies from before the edit) are withdrawn, as for removed content."
      )
    )
}
