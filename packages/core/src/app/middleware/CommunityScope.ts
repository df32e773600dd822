import { HttpMethod, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { Memberships } from "../../communities/Memberships"
import { forbidden, invalidField } from "../../domain/AppError"
import type { Member, TokenSubject } from "../../domain/Caller"
import type { CommunityId } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { communityIdHeader } from "../../http/Security"
import { Identity } from "../../identity/Identity"
import { invalidToken } from "./Authentication"

/**
 * The token's account and its membership in the community (before any `X-ProfileId`), read in one
 * statement with the token's session: 401 `Invalid or expired token` when the account no longer
 * exists or the session ended.
 */
export const makeFindCaller = Effect.gen(function*() {
  const memberships = yield* Memberships
  const identity = yield* Identity
  return (communityId: CommunityId, subject: TokenSubject) =>
    Effect.flatMap(memberships.callerIn(communityId, subject.accountId, subject.sessionId), (row) => {
      if (Option.isNone(row)) return invalidToken
      const { profileId, role, slowModeSeconds, suspendedUntil } = row.value
      const account = { ...identity.accountOf(row.value), sessionId: subject.sessionId }
      const member = profileId === null || role === null
        ? Option.none<Member>()
        : Option.some<Member>({
          account,
          communityId,
          profileId,
          role,
          actingProfileId: profileId,
          suspendedUntil,
          slowModeSeconds
        })
      return Effect.succeed({ account, member })
    })
})

/**
 * Where the community header is wrong, a token naming no account is still refused first (401, as
 * when the account was read before the header); only that failure path reads the account alone.
 */
export const makeCommunityIdOf = Effect.map(
  Identity,
  (identity) => (subject: TokenSubject) =>
    Effect.catchAll(communityIdHeader, (error) =>
      Effect.flatMap(
        identity.findCaller(subject),
        (account) =>
          Option.isNone(account)
            ? invalidToken
            : Effect.fail<typeof error | Effect.Effect.Error<typeof invalidToken>>(error)
      ))
)

/** 403 `Você não é membro desta comunidade.` unless the account is a member. */
export const requireMembership = (member: Option.Option<Member>) =>
  Option.match(member, { onNone: () => Effect.fail(forbidden(Messages.notMember)), onSome: Effect.succeed })

/**
 * Spec §5, X-CommunityId rule 4: where a JSON body carries `communityId`, it must equal the header
 * (400 with `param: "communityId"`). A body that is not JSON is left to the route's own validation.
 */
export const bodyCommunityMatches = (communityId: string) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    // As the framework decodes payloads: media types are case-insensitive (`Application/JSON` is
    // JSON too), and a body without one is read as JSON.
    const type = request.headers["content-type"]
    if (!HttpMethod.hasBody(request.method) || (type !== undefined && !/application\/json/i.test(type))) {
      return Effect.void
    }
    return Effect.flatMap(Effect.option(request.json), (body) => {
      const claimed = Option.getOrUndefined(body) as { communityId?: unknown } | null | undefined
      if (typeof claimed !== "object" || claimed === null || !("communityId" in claimed)) return Effect.void
      if (typeof claimed.communityId === "string" && claimed.communityId.trim().toLowerCase() === communityId) {
        return Effect.void
      }
      return Effect.fail(invalidField("communityId", Messages.communityMismatch))
    })
  })
