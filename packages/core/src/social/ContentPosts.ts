import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { requireNotSuspended } from "../communities/Memberships"
import { forbidden, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { isUuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { isStaff } from "../domain/Role"
import { Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { Comments } from "./Comments"
import { heldWhen } from "./held"
import { SocialItems } from "./items"
import { groupMentions, MentionsRepo } from "./mentions"
import { socialMessages as M } from "./messages"
import { PostsRepo } from "./PostsRepo"
import { Reactions } from "./Reactions"
import { contentView } from "./view"

export interface NewContentInput {
  readonly spaceId?: string | null | undefined
  readonly title: string
  readonly body: string
  readonly attachments?: ReadonlyArray<string> | undefined
}

/**
 * Content posts: titled posts in a `feed` space by the acting profile, read through the feed (and
 * `GET /api/content/{id}`). Posting needs `Access.readContent` on the space and its posting rule.
 */
export class ContentPosts extends Effect.Service<ContentPosts>()("@roda/core/ContentPosts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* PostsRepo
    const mentions = yield* MentionsRepo
    const reactions = yield* Reactions
    const comments = yield* Comments
    const items = yield* SocialItems
    const access = yield* Access
    const ids = yield* Ids
    const limits = yield* RateLimits
    const webhooks = yield* WebhookEvents
    const notify = yield* Notify

    /**
     * The space of a new post, as for courses: given (400), of this community and visible to the
     * member (400 `Espaço não encontrado…`), a `feed` space (400); then its content readable (403)
     * and the posting rule: `staff` spaces take posts from owner, admin, moderator only (403).
     */
    const feedSpaceOf = access.spaceOf("feed", {
      in: "body",
      required: Messages.spaceIdRequired,
      unknown: Messages.spaceNotFound,
      otherModule: M.notAFeedSpace
    })
    const postingSpace = (member: Member, spaceId: string | null | undefined) =>
      Effect.gen(function*() {
        const viewer = viewerOfMember(member)
        const space = yield* feedSpaceOf(viewer, spaceId)
        yield* access.readContent(viewer, space.spaceId)
        if (!space.isStaff && (yield* repo.postingPolicy(member.communityId, space.spaceId)) === "staff") {
          return yield* Effect.fail(forbidden(M.postingStaffOnly))
        }
        return space.spaceId
      })

    const detail = traced("ContentPosts.detail")(function*(viewer: Viewer, id: string) {
      const key = id.trim().toLowerCase()
      const missing = notFound(M.contentNotFound)
      if (!isUuid(key)) return yield* Effect.fail(missing)
      const item = yield* items.resolve(viewer, "content", key)
      const row = yield* repo.findContent(viewer.communityId, item.id)
      if (Option.isNone(row)) return yield* Effect.fail(missing)
      const c = viewer.communityId
      const engagement = {
        reactions: yield* reactions.countsFor(c, "content", [item.id]),
        mine: Option.isSome(viewer.member)
          ? yield* reactions.mineFor(c, viewer.member.value.actingProfileId, "content", [item.id])
          : new Map(),
        comments: yield* comments.countsFor(c, "content", [item.id]),
        mentions: groupMentions(yield* mentions.of(c, "content", [item.id]))
      }
      return contentView(row.value, engagement)
    })

    const create = traced("ContentPosts.create")(function*(member: Member, input: NewContentInput) {
      const spaceId = yield* postingSpace(member, input.spaceId)
      yield* requireNotSuspended(member)
      yield* limits.posting(member.communityId, member.account.id)
      if (!isStaff(member.role)) {
        yield* limits.slowMode(member.communityId, spaceId, member.account.id, member.slowModeSeconds ?? 0)
      }
      const id = yield* ids.next
      return yield* transactional(sql)(Effect.gen(function*() {
        const held = isStaff(member.role)
          ? undefined
          : heldWhen(sql, member.communityId, sql`${member.actingProfileId}`, `${input.title} ${input.body}`)
        const pending = yield* repo.insertContent({
          id,
          communityId: member.communityId,
          spaceId,
          authorProfileId: member.actingProfileId,
          title: input.title,
          body: input.body,
          attachments: input.attachments ?? []
        }, held)
        // a held post's mentions and followers are told, and its event written, on its approval
        if (pending) {
          yield* mentions.insertFor(member.communityId, "content", id, input.body, true)
          return yield* detail(viewerOfMember(member), id)
        }
        yield* mentions.replace(member.communityId, "content", id, input.body)
        const post = yield* detail(viewerOfMember(member), id)
        yield* webhooks.emit(member.communityId, "post.created", { postType: "content", ...post })
        // The space's followers hear of it from jobs, never inside the request (one statement here).
        yield* notify.notifyFollowers(member.communityId, spaceId, {
          actorProfileId: member.actingProfileId,
          subject: { type: "content", id, title: post.title }
        })
        return post
      }))
    })

    return { create, detail }
  }),
  dependencies: [PostsRepo.Default, MentionsRepo.Default, Reactions.Default, Comments.Default, SocialItems.Default]
}) {}
