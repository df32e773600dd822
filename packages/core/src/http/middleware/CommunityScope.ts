import { HttpMethod, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { CommunitiesRepo } from "../../communities/Repo"
import { badRequest, fieldError, forbidden, invalidField } from "../../domain/AppError"
import type { Account, Member } from "../../domain/Caller"
import { isUuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"

/** `X-CommunityId`: a valid id, or 400 with `errors[0].param = "X-CommunityId"` (spec §7). */
export const communityIdHeader = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const value = request.headers["x-communityid"]?.trim()
  if (value === undefined || !isUuid(value)) {
    return yield* Effect.fail(
      badRequest(Messages.communityHeaderMissing, [
        fieldError("X-CommunityId", Messages.communityHeaderParam, "headers")
      ])
    )
  }
  return value.toLowerCase()
})

/** The account's membership in the community, before any `X-ProfileId`. */
export const makeFindMember = Effect.map(
  CommunitiesRepo,
  (repo) => (communityId: string, account: Account) =>
    Effect.map(
      repo.membership(communityId, account.id),
      Option.map((m): Member => ({
        account,
        communityId,
        profileId: m.profileId,
        role: m.role,
        actingProfileId: m.profileId
      }))
    )
)

/** 403 `Você não é membro desta comunidade.` unless the account is a member. */
export const requireMembership = (member: Option.Option<Member>) =>
  Option.match(member, { onNone: () => Effect.fail(forbidden(Messages.notMember)), onSome: Effect.succeed })

/**
 * Spec §5, X-CommunityId rule 4: where a JSON body carries `communityId`, it must equal the header
 * (400 with `param: "communityId"`). A body that is not JSON is left to the route's own validation.
 */
export const bodyCommunityMatches = (communityId: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // As the framework decodes payloads: media types are case-insensitive (`Application/JSON` is
    // JSON too), and a body without one is read as JSON.
    const type = request.headers["content-type"]
    if (!HttpMethod.hasBody(request.method) || (type !== undefined && !/application\/json/i.test(type))) return
    const body = yield* Effect.option(request.json)
    const claimed = Option.getOrUndefined(body) as { communityId?: unknown } | null | undefined
    if (typeof claimed !== "object" || claimed === null || !("communityId" in claimed)) return
    if (typeof claimed.communityId === "string" && claimed.communityId.trim().toLowerCase() === communityId) return
    return yield* Effect.fail(invalidField("communityId", Messages.communityMismatch))
  })
