import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentDeferredMember, CurrentMember, CurrentVisitor } from "../domain/Caller"
import { Ok } from "../domain/Envelope"
import { Messages } from "../domain/Messages"
import { apiGroup } from "../http/engine/apiGroup"
import { rateLimited } from "../http/rateLimited"
import { ok, page } from "../http/Reply"
import { viewerOfVisitor } from "../structure/Access"
import { Comment, ContentPost, StatusCreated } from "./Api"
import { Comments } from "./Comments"
import { ContentPosts } from "./ContentPosts"
import { socialMessages as M } from "./messages"
import { Reactions } from "./Reactions"
import { StatusPosts } from "./StatusPosts"

// Posts and comments count against `posting` (RateLimits): their answers carry its headers.
const statusCreated = rateLimited(StatusCreated, { status: 201 })
const commentCreated = rateLimited(Ok(Comment), { status: 201 })
const contentCreated = rateLimited(Ok(ContentPost), { status: 201 })

const reacted = <A extends { readonly reaction: string | null }>(state: A) =>
  ok(state.reaction === null ? Messages.reactionRemoved : Messages.reactionSaved, state)

export const StatusHttp = apiGroup(RodaApi, "status", (handlers) =>
  Effect.gen(function*() {
    const posts = yield* StatusPosts
    const comments = yield* Comments
    const reactions = yield* Reactions
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => posts.list(viewerOfVisitor(visitor), urlParams)),
          Effect.flatMap((result) => page(M.statusPosts, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentDeferredMember.pipe(
          Effect.flatMap((caller) => posts.createAs(caller, payload.body)),
          Effect.flatMap((data) => ok(M.statusCreated, data)),
          statusCreated
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => posts.update(member, path.id, payload.body)),
          Effect.flatMap((data) => ok(M.statusUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => posts.remove(member, path.id)),
          Effect.flatMap(() => ok(M.statusDeleted, null))
        ))
      .handle("react", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reactions.react(member, "status", path.id, payload.type)),
          Effect.flatMap(reacted)
        ))
      .handle("comment", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.add(member, "status", path.id, payload)),
          Effect.flatMap((data) => ok(Messages.commentCreated, data)),
          commentCreated
        ))
      .handle("comments", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.list(member, "status", path.id, urlParams)),
          Effect.flatMap((result) => page(M.comments, result))
        ))
      .handle("updateComment", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.update(member, "status", path.statusId, path.commentId, payload.body)),
          Effect.flatMap((data) => ok(M.commentUpdated, data))
        ))
      .handle("removeComment", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.remove(member, "status", path.statusId, path.commentId)),
          Effect.flatMap(() => ok(M.commentDeleted, null))
        ))
      .handle("reactToComment", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.react(member, "status", path.statusId, path.commentId, payload.type)),
          Effect.flatMap(reacted)
        ))
  }))

export const ContentHttp = apiGroup(RodaApi, "content", (handlers) =>
  Effect.gen(function*() {
    const content = yield* ContentPosts
    return handlers
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => content.create(member, payload)),
          Effect.flatMap((data) => ok(M.contentCreated, data)),
          contentCreated
        ))
      .handle("detail", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => content.detail(viewerOfVisitor(visitor), path.id)),
          Effect.flatMap((data) => ok(M.content, data))
        ))
  }))
