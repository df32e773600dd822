import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../domain/Caller"
import { Ok } from "../domain/Envelope"
import { Messages } from "../domain/Messages"
import { apiGroup } from "../http/engine/apiGroup"
import { plainJson } from "../http/engine/PlainJson"
import { rateLimited } from "../http/rateLimited"
import { ok, page } from "../http/Reply"
import { Comment } from "../social/Api"
import { Comments } from "../social/Comments"
import { Reactions } from "../social/Reactions"
import { viewerOfVisitor } from "../structure/Access"
import { FeedPage } from "./Api"
import { Feed } from "./Feed"
import { feedMessages as M } from "./messages"

const feedPage = plainJson(FeedPage)

/** Comments count against `posting` (RateLimits): the answer carries its headers. */
const commentCreated = rateLimited(Ok(Comment), { status: 201 })

export const FeedHttp = apiGroup(RodaApi, "feed", (handlers) =>
  Effect.gen(function*() {
    const feed = yield* Feed
    const reactions = yield* Reactions
    const comments = yield* Comments
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => feed.list(viewerOfVisitor(visitor), urlParams)),
          Effect.flatMap((result) => page(M.feed, result)),
          feedPage
        ))
      .handle("stats", () =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => feed.stats(viewerOfVisitor(visitor))),
          Effect.flatMap((data) => ok(M.feedStats, data))
        ))
      .handle("recommendations", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => feed.recommendations(member, urlParams.limit)),
          Effect.flatMap((data) => ok(M.feedRecommendations, data))
        ))
      .handle("react", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reactions.react(member, path.type, path.id, payload.type)),
          Effect.flatMap((state) =>
            ok(state.reaction === null ? Messages.reactionRemoved : Messages.reactionSaved, state)
          )
        ))
      .handle("comment", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => comments.add(member, path.type, path.id, payload)),
          Effect.flatMap((data) => ok(Messages.commentCreated, data)),
          commentCreated
        ))
      .handle("pin", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => feed.pin(member, path.type, path.id, payload.pinned)),
          Effect.flatMap((data) => ok(data.pinned ? M.feedItemPinned : M.feedItemUnpinned, data))
        ))
  }))
