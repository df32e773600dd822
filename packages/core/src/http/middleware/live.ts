import { Effect, Layer, Option } from "effect"
import { makeApplyActingProfile } from "./ActingProfile"
import { makeAuthenticate, requireAccount } from "./Authentication"
import { bodyCommunityMatches, communityIdHeader, makeFindMember, requireMembership } from "./CommunityScope"
import { MemberScope, PublicScope } from "./tags"

/** Token, then community header, then membership, then `X-ProfileId`. */
export const MemberScopeLive = Layer.effect(
  MemberScope,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const findMember = yield* makeFindMember
    const applyActingProfile = yield* makeApplyActingProfile
    return {
      bearer: () =>
        Effect.gen(function*() {
          const account = yield* requireAccount(authenticate)
          const communityId = yield* communityIdHeader
          const member = yield* requireMembership(yield* findMember(communityId, account))
          yield* bodyCommunityMatches(communityId)
          return yield* applyActingProfile(member)
        })
    }
  })
)

/** Community header required, token optional; a member's `X-ProfileId` still follows the rules. */
export const PublicScopeLive = Layer.effect(
  PublicScope,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const findMember = yield* makeFindMember
    const applyActingProfile = yield* makeApplyActingProfile
    return Effect.gen(function*() {
      const communityId = yield* communityIdHeader
      yield* bodyCommunityMatches(communityId)
      const account = yield* authenticate
      const found = Option.isSome(account) ? yield* findMember(communityId, account.value) : Option.none()
      const member = Option.isSome(found) ? Option.some(yield* applyActingProfile(found.value)) : Option.none()
      return { communityId, account, member }
    })
  })
)
