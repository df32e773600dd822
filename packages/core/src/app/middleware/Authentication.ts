import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { ApiKeyAccess } from "../../apiKeys/ApiKeyAccess"
import { apiKeyRefusal, operationOf, routeRefused } from "../../apiKeys/operationScope"
import { forbidden, unauthorized } from "../../domain/AppError"
import type { Account, TokenSubject } from "../../domain/Caller"
import { AccountId, isUuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { Authenticated } from "../../http/Security"
import { Identity } from "../../identity/Identity"
import { Sessions } from "../../identity/Sessions"
import { RateLimits } from "../../platform/RateLimits"
import { Tokens } from "../../platform/Tokens"

const BEARER = /^Bearer ([^\s]+)$/

/** Built only on the failure path: the error (and its stack trace) is not made for a valid token. */
export const invalidToken = Effect.suspend(() => Effect.fail(unauthorized(Messages.tokenInvalid)))

const API_KEY = "rk_"

/**
 * An API key (`Bearer rk_…`, platform.md "API keys") for the request's operation, read in one
 * statement: 401 `Invalid or expired token` unless it is live; 403 on a route keys may not use, for
 * a scope it lacks, or with another community's `X-CommunityId`; then counted against its limit
 * (429). The subject is the key's creator, with no session.
 */
const makeReadApiKey = Effect.gen(function*() {
  const access = yield* ApiKeyAccess
  const limits = yield* RateLimits
  return (request: HttpServerRequest.HttpServerRequest, key: string) =>
    Effect.gen(function*() {
      const found = yield* access.authenticate(key)
      if (Option.isNone(found)) return yield* invalidToken
      const grant = found.value
      const operation = operationOf(request.method, request.url)
      const refusal = operation === undefined
        ? Option.some(routeRefused())
        : apiKeyRefusal(operation.group, operation.endpoint, grant.scopes)
      if (Option.isSome(refusal)) return yield* Effect.fail(refusal.value)
      const community = request.headers["x-communityid"]?.trim().toLowerCase()
      if (community !== undefined && isUuid(community) && community !== grant.communityId) {
        return yield* Effect.fail(forbidden(Messages.apiKeyOtherCommunity))
      }
      yield* limits.apiKey(grant.keyId)
      return Option.some<TokenSubject>({ accountId: grant.accountId, apiKeyId: grant.keyId })
    })
})

/**
 * The account and session of `Authorization: Bearer <JWT>`, without reading either: none when the
 * header is absent; 401 `Invalid or expired token` when it is not in that form, does not verify, has
 * expired or names no session (a token issued before sessions: its holder signs in again). An API
 * key is refused (403): the routes of no community take none.
 */
export const makeReadToken = Effect.map(
  Tokens,
  (tokens) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.gen(function*() {
        const header = request.headers["authorization"]
        if (header === undefined || header.trim() === "") return Option.none<TokenSubject>()
        const match = BEARER.exec(header)
        if (!match) return yield* invalidToken
        if (match[1]!.startsWith(API_KEY)) return yield* Effect.fail(forbidden(Messages.apiKeyRouteRefused))
        const claims = yield* tokens.verify(match[1]!)
        if (Option.isNone(claims) || claims.value.sessionId === undefined || !isUuid(claims.value.accountId)) {
          return yield* invalidToken
        }
        return Option.some<TokenSubject>({
          accountId: AccountId.make(claims.value.accountId),
          sessionId: claims.value.sessionId
        })
      }))
)

/** The routes of a community: `makeReadToken`, where an API key is checked for the request's operation. */
const makeReadScopedToken = Effect.gen(function*() {
  const readToken = yield* makeReadToken
  const readApiKey = yield* makeReadApiKey
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const key = BEARER.exec(request.headers["authorization"] ?? "")?.[1]
    return key !== undefined && key.startsWith(API_KEY) ? readApiKey(request, key) : readToken
  })
})

/**
 * Marks the token's session used (`lastUsedAt`): at most once a minute per session and process, off
 * the request's path (see `Sessions.touch`).
 */
const touchingSession = <E, R>(readToken: Effect.Effect<Option.Option<TokenSubject>, E, R>) =>
  Effect.map(
    Sessions,
    (sessions) =>
      Effect.tap(readToken, (subject) =>
        Option.isSome(subject) && subject.value.sessionId !== undefined
          ? sessions.touch(subject.value.sessionId)
          : Effect.void)
  )

/** `makeReadToken`, the session marked used. */
export const makeReadSession = Effect.flatMap(makeReadToken, (readToken) => touchingSession(readToken))

/** The token of a community's route (an API key checked for it, see `makeReadApiKey`), the session marked used. */
export const makeReadScopedSession = Effect.flatMap(makeReadScopedToken, (readToken) => touchingSession(readToken))

/**
 * Reads `Authorization: Bearer <JWT>`: none when the header is absent; 401 `Invalid or expired
 * token` when it is not in that form, does not verify, has expired, names no account or a session
 * that ended (the account and its open session are read in one statement).
 */
export const makeAuthenticate = Effect.gen(function*() {
  const readToken = yield* makeReadSession
  const identity = yield* Identity
  return Effect.flatMap(readToken, (subject) =>
    Option.isNone(subject)
      ? Effect.succeed(Option.none<Account>())
      : Effect.flatMap(
        identity.findCaller(subject.value),
        (account) => Option.isNone(account) ? invalidToken : Effect.succeed(account)
      ))
})

/** 401 `Authentication token is required` when there is no token. */
export const requireAccount = <A, E, R>(authenticate: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(
    authenticate,
    Option.match({
      onNone: () => Effect.fail(unauthorized(Messages.tokenRequired)),
      onSome: Effect.succeed
    })
  )

export const AuthenticatedLive = Layer.effect(
  Authenticated,
  Effect.map(makeAuthenticate, (authenticate) => ({ bearer: () => requireAccount(authenticate) }))
)
