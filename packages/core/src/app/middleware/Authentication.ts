import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { unauthorized } from "../../domain/AppError"
import type { Account } from "../../domain/Caller"
import { AccountId, isUuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { Authenticated } from "../../http/Security"
import { Identity } from "../../identity/Identity"
import { Sessions } from "../../identity/Sessions"
import { Tokens } from "../../platform/Tokens"

const BEARER = /^Bearer ([^\s]+)$/

/** Built only on the failure path: the error (and its stack trace) is not made for a valid token. */
export const invalidToken = Effect.suspend(() => Effect.fail(unauthorized(Messages.tokenInvalid)))

/**
 * The account and session of `Authorization: Bearer <JWT>`, without reading either: none when the
 * header is absent; 401 `Invalid or expired token` when it is not in that form, does not verify, has
 * expired or names no session (a token issued before sessions: its holder signs in again).
 */
export const makeReadToken = Effect.map(
  Tokens,
  (tokens) =>
    Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (request) => {
        const header = request.headers["authorization"]
        if (header === undefined || header.trim() === "") return Effect.succeed(Option.none())
        const match = BEARER.exec(header)
        if (!match) return invalidToken
        return Effect.flatMap(tokens.verify(match[1]!), (claims) => {
          if (Option.isNone(claims) || claims.value.sessionId === undefined || !isUuid(claims.value.accountId)) {
            return invalidToken
          }
          return Effect.succeed(
            Option.some({ accountId: AccountId.make(claims.value.accountId), sessionId: claims.value.sessionId })
          )
        })
      }
    )
)

/**
 * `makeReadToken`, and the token's session marked used (`lastUsedAt`): at most once a minute per
 * session and process, off the request's path (see `Sessions.touch`).
 */
export const makeReadSession = Effect.gen(function*() {
  const readToken = yield* makeReadToken
  const sessions = yield* Sessions
  return Effect.tap(
    readToken,
    (subject) => Option.isSome(subject) ? sessions.touch(subject.value.sessionId) : Effect.void
  )
})

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
