import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { CommunitiesRepo } from "../../communities/Repo"
import { badRequest, fieldError, forbidden } from "../../domain/AppError"
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
