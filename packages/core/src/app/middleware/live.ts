import { Effect, Layer, Option } from "effect"
import type { Account, Member } from "../../domain/Caller"
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
    const anonymous = (communityId: string) =>
      Effect.succeed({ communityId, account: Option.none<Account>(), member: Option.none<Member>() })
    const asCaller = (communityId: string, accountId: string) =>
      Effect.flatMap(findCaller(communityId, accountId), ({ account, member }) =>
        Option.isNone(member)
          ? Effect.succeed({ communityId, account: Option.some(account), member })
          : Effect.map(
            applyActingProfile(member.value),
            (acting) => ({ communityId, account: Option.some(account), member: Option.some(acting) })
          ))
    return Effect.flatMap(communityIdHeader, (communityId) =>
      Effect.zipRight(
        bodyCommunityMatches(communityId),
        Effect.flatMap(readToken, (accountId) =>
          Option.isNone(accountId) ? anonymous(communityId) : asCaller(communityId, accountId.value))
      ))
  })
)
