import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { type AppError, unauthorized } from "../../domain/AppError"
import type { Account } from "../../domain/Caller"
import { Messages } from "../../domain/Messages"
import { Authenticated } from "../../http/Security"
import { Identity } from "../../identity/Identity"
import { Tokens } from "../../platform/Tokens"

const BEARER = /^Bearer ([^\s]+)$/

/** Built only on the failure path: the error (and its stack trace) is not made for a valid token. */
export const invalidToken = Effect.suspend(() => Effect.fail(unauthorized(Messages.tokenInvalid)))

/**
 * The account id of `Authorization: Bearer <JWT>`, without reading the account: none when the header
 * is absent; 401 `Invalid or expired token` when it is not in that form, does not verify or has expired.
 */
export const makeReadToken = Effect.map(
  Tokens,
  (tokens) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request): Effect.Effect<Option.Option<string>, AppError> => {
      const header = request.headers["authorization"]
      if (header === undefined || header.trim() === "") return Effect.succeed(Option.none())
      const match = BEARER.exec(header)
      if (!match) return invalidToken
      return Effect.flatMap(
        tokens.verify(match[1]!),
        (claims) => Option.isNone(claims) ? invalidToken : Effect.succeed(Option.some(claims.value.accountId))
      )
    })
)

/**
 * Reads `Authorization: Bearer <JWT>`: none when the header is absent; 401 `Invalid or expired
 * token` when it is not in that form, does not verify, has expired or names no account.
 */
export const makeAuthenticate = Effect.gen(function*() {
  const readToken = yield* makeReadToken
  const identity = yield* Identity
  return Effect.flatMap(readToken, (accountId) =>
    Option.isNone(accountId)
      ? Effect.succeed(Option.none<Account>())
      : Effect.flatMap(
        identity.findAccount(accountId.value),
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
