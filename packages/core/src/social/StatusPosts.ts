import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Clock, Effect, Option, Schema } from "effect"
import { requireNotSuspended, suspensionRefusal } from "../communities/Memberships"
import { notFound } from "../domain/AppError"
import type { DeferredMember, Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, isUuid, ProfileId, Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { isStaff } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { atomic } from "../sql/transaction"
import type { Viewer } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { Comments } from "./Comments"
import { editHeldWhen, heldWhen } from "./held"
import { SocialItems } from "./items"
import { groupMentions, mentionedIds, MentionsRepo } from "./mentions"
import { socialMessages as M } from "./messages"
import { requireAuthorOrStaff, requireMayEdit } from "./policy"
import { PostsRepo, type StatusRow } from "./PostsRepo"
import { Reactions } from "./Reactions"
import { statusView } from "./view"

/** A post before its insert: what its view holds that the insert does not read (`PostsRepo.insertedStatus`). */
const unwritten = (id: string, body: string): StatusRow => ({
  id,
  body,
  hidden: false,
  pending: false,
  authorProfileId: ProfileId.make(id),
  authorName: "",
  authorAvatarUrl: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  cursorTime: ""
})

/** [created_at with microseconds, id] of the last post of a page. */
const StatusCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

/**
 * Status posts: short community-wide posts (no space) by the acting profile. Members read them;
 * anonymous visitors only when the community's `publicStatusPosts` setting is true. Edits and
 * removals (soft) by the author or staff.
 */
export class StatusPosts extends Effect.Service<StatusPosts>()("@roda/core/StatusPosts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* PostsRepo
    const mentions = yield* MentionsRepo
    const reactions = yield* Reactions
    const comments = yield* Comments
    const items = yield* SocialItems
    const ids = yield* Ids
    const limits = yield* RateLimits
    const webhooks = yield* WebhookEvents

    /** Posts with reactions, the viewer's own, comment counts and mentions: four queries per list. */
    const views = (viewer: Viewer, rows: ReadonlyArray<StatusRow>) =>
      Effect.gen(function*() {
        const postIds = rows.map((row) => row.id)
        const c = viewer.communityId
        const engagement = {
          reactions: yield* reactions.countsFor(c, "status", postIds),
          mine: Option.isSome(viewer.member)
            ? yield* reactions.mineFor(c, viewer.member.value.actingProfileId, "status", postIds)
            : new Map(),
          comments: yield* comments.countsFor(c, "status", postIds),
          mentions: groupMentions(yield* mentions.of(c, "status", postIds))
        }
        return rows.map((row) => statusView(row, engagement))
      })

    const find = (member: Member, id: string) =>
      Effect.gen(function*() {
        const key = id.trim().toLowerCase()
        const row = yield* orNotFound(M.statusNotFound)(
          isUuid(key) ? repo.findStatus(member.communityId, key) : Effect.succeedNone
        )
        // hidden by a moderator: its author and staff only
        if (row.hidden && row.authorProfileId !== member.actingProfileId && !isStaff(member.role)) {
          return yield* Effect.fail(notFound(M.statusNotFound))
        }
        return row
      })

    const one = (member: Member, id: string) =>
      Effect.flatMap(find(member, id), (row) =>
        Effect.map(
          views({ communityId: member.communityId, member: Option.some(member) }, [row]),
          (list) => list[0]!
        ))

    const list = traced("StatusPosts.list")(function*(viewer: Viewer, query: PageQuery) {
      const page = yield* paginate(
        query,
        StatusCursor,
        (after, limit) =>
          Effect.gen(function*() {
            // hidden status posts: an empty page (`views` of no rows reads nothing)
            if (!(yield* items.statusPostsVisible(viewer))) return []
            const key = after === undefined ? undefined : [after[0], after[1].toLowerCase()] as const
            const seer = Option.match(viewer.member, {
              onNone: () => null,
              onSome: (member) => isStaff(member.role) ? "staff" : member.actingProfileId
            })
            return yield* repo.listStatus(viewer.communityId, key, limit, seer)
          }),
        (row) => [row.cursorTime, row.id]
      )
      return { items: yield* views(viewer, page.items), pagination: page.pagination }
    })

    const noEngagement = { reactions: new Map(), mine: new Map(), mentions: new Map() }

    /**
     * A new post written by `insert` (one statement), and its mentions when it has any (then both in
     * a transaction, all or nothing), each answered by its insert. A new post has no reactions or
     * comments yet, so nothing is read back. It needs no request transaction (see `selfContained`
     * in app/requestTransaction.ts). Its `post.created` event is written by the insert itself
     * (`emitWithin`); with mentions, by a third statement of the transaction, once they are known.
     */
    const post = <E>(
      communityId: CommunityId,
      id: string,
      body: string,
      insert: (within?: Fragment) => Effect.Effect<StatusRow, E>
    ) =>
      mentionedIds(body).length === 0
        ? Effect.flatMap(
          webhooks.emitWithin(
            communityId,
            "post.created",
            repo.insertedStatus({ postType: "status", ...statusView(unwritten(id, body), noEngagement) })
          ),
          (within) => Effect.map(insert(within), (row) => statusView(row, noEngagement))
        )
        : atomic(sql)(Effect.flatMap(
          insert(),
          // a held post's mentions are notified, and its event written, on its approval
          (row) =>
            Effect.flatMap(mentions.insertFor(communityId, "status", id, body, row.pending), (mentioned) => {
              const view = statusView(row, { ...noEngagement, mentions: groupMentions(mentioned) })
              return row.pending
                ? Effect.succeed(view)
                : Effect.as(webhooks.emit(communityId, "post.created", { postType: "status", ...view }), view)
            })
        ))

    const create = traced("StatusPosts.create")(function*(member: Member, body: string) {
      yield* requireNotSuspended(member)
      yield* limits.posting(member.communityId, member.account.id)
      const id = yield* ids.next
      const row = { id, communityId: member.communityId, authorProfileId: member.actingProfileId, body }
      const held = isStaff(member.role)
        ? undefined
        : heldWhen(sql, member.communityId, sql`${row.authorProfileId}`, body)
      return yield* post(member.communityId, id, body, (within) => repo.insertStatus(row, within, held))
    })

    /**
     * `create` for a caller whose membership is read in the post's insert (`DeferredMember`): one
     * statement without mentions, three in a transaction with them; nothing is written for a non-member.
     */
    const createAs = (caller: DeferredMember, body: string) =>
      Option.isSome(caller.member) ? create(caller.member.value, body) : createAsCaller(caller, body)

    const createAsCaller = traced("StatusPosts.create")(function*(caller: DeferredMember, body: string) {
      // Counted under the token's account before its membership is read (in the insert).
      yield* limits.posting(caller.communityId, caller.accountId)
      const id = yield* ids.next
      const now = yield* Clock.currentTimeMillis
      const insert = (within?: Fragment) =>
        Effect.flatMap(
          repo.insertStatusAs(caller.caller, { id, communityId: caller.communityId, body }, new Date(now), within),
          (found) => {
            if (Option.isNone(found)) return caller.refuse(false)
            if (Option.isSome(found.value.row)) return Effect.succeed(found.value.row.value)
            // a member suspended past now: 403 with the end date (nothing was written)
            return Effect.zipRight(suspensionRefusal(found.value.suspendedUntil, now), caller.refuse(true))
          }
        )
      return yield* post(caller.communityId, id, body, insert)
    })

    const update = traced("StatusPosts.update")(function*(member: Member, id: string, body: string) {
      const post = yield* find(member, id)
      yield* requireMayEdit(member, { profileId: post.authorProfileId, role: post.authorRole })
      // a member's edit with a blocked word waits for approval (staff are never held)
      const held = isStaff(member.role) ? undefined : editHeldWhen(sql, member.communityId, body)
      yield* atomic(sql)(Effect.gen(function*() {
        const edited = yield* repo.updateStatus(member.communityId, post.id, body, held)
        // held by an edit: its mentions change on approval (those newly mentioned are told then)
        if (!edited.heldEdit) yield* mentions.replace(member.communityId, "status", post.id, body, edited.pending)
      }))
      return yield* one(member, post.id)
    })

    const remove = traced("StatusPosts.remove")(function*(member: Member, id: string) {
      const post = yield* find(member, id)
      yield* requireAuthorOrStaff(member, post.authorProfileId)
      yield* repo.removeStatus(member.communityId, post.id)
    })

    return { list, create, createAs, update, remove }
  }),
  dependencies: [PostsRepo.Default, MentionsRepo.Default, Reactions.Default, Comments.Default, SocialItems.Default]
}) {}
