import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { unauthorized } from "../../domain/AppError"
import type { Account } from "../../domain/Caller"
import { Messages } from "../../domain/Messages"
import { Identity } from "../../identity/Identity"
import { Tokens } from "../../platform/Tokens"
import { Authenticated } from "./tags"

/**
 * Reads `Authorization: Bearer <JWT>`: none when the header is absent; 401 `Invalid or expired
 * token` when it is not in that form, does not verify, has expired or names no account.
 */
export const makeAuthenticate = Effect.gen(function*() {
  const tokens = yield* Tokens
  const identity = yield* Identity
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const header = request.headers["authorization"]
    if (header === undefined || header.trim() === "") return Option.none<Account>()
    const match = /^Bearer ([^\s]+)$/.exec(header)
    const invalid = Effect.fail(unauthorized(Messages.tokenInvalid))
    if (!match) return yield* invalid
    const claims = yield* tokens.verify(match[1]!)
    if (Option.isNone(claims)) return yield* invalid
    const account = yield* identity.findAccount(claims.value.accountId)
    if (Option.isNone(account)) return yield* invalid
    return account
  })
})

/** 401 `Authentication token is required` when there is no token. */
export const requireAccount = <E, R>(authenticate: Effect.Effect<Option.Option<Account>, E, R>) =>
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
