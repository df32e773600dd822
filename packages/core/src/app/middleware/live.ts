import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { Memberships } from "../../communities/Memberships"
import { forbidden } from "../../domain/AppError"
import type { Account, DeferredMember, DeferredVisitor, Member, TokenSubject, Visitor } from "../../domain/Caller"
import { type CommunityId, isUuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import {
  communityIdHeader,
  DeferredMemberScope,
  DeferredPublicScope,
  MemberScope,
  PublicScope
} from "../../http/Security"
import { makeApplyActingProfile } from "./ActingProfile"
import { invalidToken, makeReadScopedSession, requireAccount } from "./Authentication"
import { bodyCommunityMatches, makeCommunityIdOf, makeFindCaller, requireMembership } from "./CommunityScope"

/**
 * What MemberScope and DeferredMemberScope share: `scoped` checks the token (401) and the community
 * header (400) before the rest; `settle` reads the account and its membership in one statement (401,
 * 403); `resolve` is `settle`, then the body's `communityId` (400), then `X-ProfileId`.
 */
const makeMemberChecks = Effect.gen(function*() {
  const readToken = yield* makeReadScopedSession
  const communityIdOf = yield* makeCommunityIdOf
  const findCaller = yield* makeFindCaller
  const applyActingProfile = yield* makeApplyActingProfile
  const scoped = <A, E, R>(next: (communityId: CommunityId, subject: TokenSubject) => Effect.Effect<A, E, R>) => () =>
    Effect.flatMap(
      requireAccount(readToken),
      (subject) => Effect.flatMap(communityIdOf(subject), (communityId) => next(communityId, subject))
    )
  const settle = (communityId: CommunityId, subject: TokenSubject) =>
    Effect.flatMap(findCaller(communityId, subject), ({ member }) => requireMembership(member))
  const resolve = (communityId: CommunityId, subject: TokenSubject) =>
    settle(communityId, subject).pipe(
      Effect.tap(() => bodyCommunityMatches(communityId)),
      Effect.flatMap(applyActingProfile)
    )
  return { scoped, settle, resolve }
})

/**
 * Token, then community header, then account and membership (one statement), then `X-ProfileId`.
 * The token's account is read with the membership, not before it.
 */
export const MemberScopeLive = Layer.effect(
  MemberScope,
  Effect.map(makeMemberChecks, ({ resolve, scoped }) => ({ bearer: scoped(resolve) }))
)

const refuse = (accountFound: boolean) => accountFound ? Effect.fail(forbidden(Messages.notMember)) : invalidToken

/**
 * MemberScope's checks, with the membership left to the route's statement where it can be: token,
 * then community header, then (without SQL) the body's `communityId`; a request naming an
 * `X-ProfileId` is read here as MemberScope reads it. Where the body's `communityId` is wrong, the
 * membership is read first, so a non-member still gets MemberScope's 401 or 403 before that 400.
 */
export const DeferredMemberScopeLive = Layer.effect(
  DeferredMemberScope,
  Effect.gen(function*() {
    const { resolve, scoped, settle } = yield* makeMemberChecks
    const memberships = yield* Memberships
    const deferred = (communityId: CommunityId, subject: TokenSubject) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const settled = settle(communityId, subject)
        const of = (member: Option.Option<Member>): DeferredMember => ({
          communityId,
          accountId: subject.accountId,
          member,
          caller: memberships.callerRow(communityId, subject.accountId, subject.sessionId),
          refuse,
          settle: settled
        })
        const header = request.headers["x-profileid"]?.trim()
        return header !== undefined && header !== ""
          ? Effect.map(resolve(communityId, subject), (member) => of(Option.some(member)))
          : Effect.as(
            Effect.catchAll(bodyCommunityMatches(communityId), (error) => Effect.zipRight(settled, Effect.fail(error))),
            of(Option.none())
          )
      })
    return { bearer: scoped(deferred) }
  })
)

/**
 * What PublicScope and DeferredPublicScope share: `scoped` checks the community header (400) and the
 * body's `communityId` (400), then the token (401, none for an anonymous visitor); `visitorOf` reads
 * the account and its membership in one statement (401 without the account), then `X-ProfileId`.
 */
const makeVisitorChecks = Effect.gen(function*() {
  const readToken = yield* makeReadScopedSession
  const findCaller = yield* makeFindCaller
  const applyActingProfile = yield* makeApplyActingProfile
  const anonymous = (communityId: CommunityId): Visitor => ({
    communityId,
    account: Option.none<Account>(),
    member: Option.none<Member>()
  })
  const visitorOf = (communityId: CommunityId, subject: TokenSubject) =>
    Effect.flatMap(findCaller(communityId, subject), ({ account, member }) =>
      Option.isNone(member)
        ? Effect.succeed<Visitor>({ communityId, account: Option.some(account), member })
        : Effect.map(
          applyActingProfile(member.value),
          (acting): Visitor => ({ communityId, account: Option.some(account), member: Option.some(acting) })
        ))
  const scoped = <A, E, R>(
    next: (communityId: CommunityId, subject: Option.Option<TokenSubject>) => Effect.Effect<A, E, R>
  ) =>
    Effect.flatMap(communityIdHeader, (communityId) =>
      Effect.zipRight(
        bodyCommunityMatches(communityId),
        Effect.flatMap(readToken, (subject) => next(communityId, subject))
      ))
  return { anonymous, visitorOf, scoped }
})

/** A request's headers as Node gives them (lower-case names). */
export type PlainHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * Whether a request without a body passes PublicScope as an anonymous visitor, which reads nothing:
 * no token (an absent or blank `Authorization`) and a valid `X-CommunityId`. PublicScope's other
 * checks need a body (its `communityId`) or a token (the account, `X-ProfileId`).
 */
export const passesPublicScopeAnonymously = (headers: PlainHeaders) => {
  const authorization = headers["authorization"]
  if (authorization !== undefined && (typeof authorization !== "string" || authorization.trim() !== "")) return false
  const community = headers["x-communityid"]
  return typeof community === "string" && isUuid(community.trim())
}

/**
 * The middleware that can tell, from the headers of a request without a body, that they let it
 * through without reading anything or providing anything a constant answer reads (`answerAtOnce`).
 */
export const passesWithoutState: ReadonlyMap<string, (headers: PlainHeaders) => boolean> = new Map([
  [PublicScope.key, passesPublicScopeAnonymously]
])

/** Community header required, token optional; a member's `X-ProfileId` still follows the rules. */
export const PublicScopeLive = Layer.effect(
  PublicScope,
  Effect.map(
    makeVisitorChecks,
    ({ anonymous, scoped, visitorOf }) =>
      scoped((communityId, subject) =>
        Option.isNone(subject) ? Effect.succeed(anonymous(communityId)) : visitorOf(communityId, subject.value)
      )
  )
)

/**
 * PublicScope's checks, with the caller left to the route's statement where it can be: a token and
 * no `X-ProfileId`. Without a token, or naming an `X-ProfileId`, the visitor is read here as
 * PublicScope reads it.
 */
export const DeferredPublicScopeLive = Layer.effect(
  DeferredPublicScope,
  Effect.gen(function*() {
    const { anonymous, scoped, visitorOf } = yield* makeVisitorChecks
    const memberships = yield* Memberships
    const read = (visitor: Visitor): DeferredVisitor => ({ _tag: "Read", visitor })
    return scoped((communityId, subject) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        if (Option.isNone(subject)) return Effect.succeed(read(anonymous(communityId)))
        const header = request.headers["x-profileid"]?.trim()
        if (header !== undefined && header !== "") {
          return Effect.map(visitorOf(communityId, subject.value), read)
        }
        const { accountId, sessionId } = subject.value
        return Effect.succeed<DeferredVisitor>({
          _tag: "Deferred",
          communityId,
          caller: memberships.callerRow(communityId, accountId, sessionId),
          refuse: invalidToken,
          settle: Effect.provideService(
            visitorOf(communityId, subject.value),
            HttpServerRequest.HttpServerRequest,
            request
          )
        })
      })
    )
  })
)
