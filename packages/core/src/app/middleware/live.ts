import { Effect, Layer, Option } from "effect"
import { communityIdHeader, MemberScope, PublicScope } from "../../http/Security"
import { makeApplyActingProfile } from "./ActingProfile"
import { makeReadToken, requireAccount } from "./Authentication"
import { bodyCommunityMatches, makeCommunityIdOf, makeFindCaller, requireMembership } from "./CommunityScope"

/**
 * Token, then community header, then account and membership (one statement), then `X-ProfileId`.
 * The token's account is read with the membership, not before it.
 */
export const MemberScopeLive = Layer.effect(
  MemberScope,
  Effect.gen(function*() {
    const readToken = yield* makeReadToken
    const communityIdOf = yield* makeCommunityIdOf
    const findCaller = yield* makeFindCaller
    const applyActingProfile = yield* makeApplyActingProfile
    return {
      bearer: () =>
        Effect.flatMap(
          requireAccount(readToken),
          (accountId) =>
            Effect.flatMap(communityIdOf(accountId), (communityId) =>
              findCaller(communityId, accountId).pipe(
                Effect.flatMap(({ member }) => requireMembership(member)),
                Effect.tap(() => bodyCommunityMatches(communityId)),
                Effect.flatMap(applyActingProfile)
              ))
        )
    }
  })
)

/** Community header required, token optional; a member's `X-ProfileId` still follows the rules. */
export const PublicScopeLive = Layer.effect(
  PublicScope,
  Effect.gen(function*() {
    const readToken = yield* makeReadToken
    const findCaller = yield* makeFindCaller
    const applyActingProfile = yield* makeApplyActingProfile
    return Effect.gen(function*() {
      const communityId = yield* communityIdHeader
      yield* bodyCommunityMatches(communityId)
      const accountId = yield* readToken
      if (Option.isNone(accountId)) return { communityId, account: Option.none(), member: Option.none() }
      const caller = yield* findCaller(communityId, accountId.value)
      const member = Option.isSome(caller.member)
        ? Option.some(yield* applyActingProfile(caller.member.value))
        : Option.none()
      return { communityId, account: Option.some(caller.account), member }
    })
  })
)
