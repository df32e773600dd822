import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { jwtVerify, SignJWT } from "jose"
import { Options } from "./Options"

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60

export interface TokenClaims {
  readonly accountId: string
  readonly email: string
}

/** Access tokens: HS256 JWTs valid for 7 days, with no refresh token (spec §5). */
export class Tokens extends Context.Tag("@roda/core/Tokens")<Tokens, {
  readonly issue: (claims: TokenClaims) => Effect.Effect<string>
  /** The claims of a valid, unexpired token; none for anything else. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<TokenClaims>>
}>() {
  static readonly layer = Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const options = yield* Options
      const key = new TextEncoder().encode(Redacted.value(options.jwtSecret))
      return {
        issue: (claims) =>
          Effect.gen(function*() {
            const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
            return yield* Effect.promise(() =>
              new SignJWT({ email: claims.email })
                .setProtectedHeader({ alg: "HS256", typ: "JWT" })
                .setSubject(claims.accountId)
                .setIssuedAt(now)
                .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
                .sign(key)
            )
          }),
        verify: (token) =>
          Effect.gen(function*() {
            const now = new Date(yield* Clock.currentTimeMillis)
            const result = yield* Effect.tryPromise(() =>
              jwtVerify(token, key, { algorithms: ["HS256"], currentDate: now, requiredClaims: ["sub", "exp", "iat"] })
            ).pipe(Effect.option)
            return Option.flatMap(result, ({ payload }) =>
              typeof payload.sub === "string" && typeof payload.email === "string"
                ? Option.some({ accountId: payload.sub, email: payload.email })
                : Option.none())
          })
      }
    })
  )
}
