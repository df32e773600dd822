import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { SignJWT } from "jose"
import { constantTimeEqual, fromBase64Url, hmacSha256With } from "./bytes"
import { Options } from "./Options"

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60

export interface TokenClaims {
  readonly accountId: string
  readonly email: string
  /** The sign-in session the token belongs to (`sid`); absent in tokens issued before sessions. */
  readonly sessionId?: string | undefined
}

const BASE64URL = /^[A-Za-z0-9_-]+$/
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** A base64url JSON object (strict: no padding, no foreign characters, valid UTF-8); none otherwise. */
const decodeObject = (segment: string): Record<string, unknown> | undefined => {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return undefined
  const bytes = fromBase64Url(segment)
  if (bytes === undefined) return undefined
  try {
    const value: unknown = JSON.parse(utf8.decode(bytes))
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined
  } catch {
    return undefined
  }
}

/** A token whose signature and claims check out, before its times are compared with the clock. */
interface SignedToken {
  readonly claims: TokenClaims
  readonly exp: number
  readonly nbf: number | undefined
}

/** Everything `verifyHs256` checks but the times; undefined for a token that is refused whatever the time. */
const readHs256 = (sign: (message: string) => Uint8Array, token: string): SignedToken | undefined => {
  const firstDot = token.indexOf(".")
  const secondDot = token.indexOf(".", firstDot + 1)
  if (firstDot <= 0 || secondDot <= firstDot + 1 || token.indexOf(".", secondDot + 1) !== -1) return undefined
  const header = decodeObject(token.slice(0, firstDot))
  if (header === undefined || header.alg !== "HS256" || header.crit !== undefined) return undefined
  const signature = token.slice(secondDot + 1)
  if (!BASE64URL.test(signature)) return undefined
  const given = fromBase64Url(signature)
  if (given === undefined || !constantTimeEqual(given, sign(token.slice(0, secondDot)))) return undefined
  const claims = decodeObject(token.slice(firstDot + 1, secondDot))
  if (claims === undefined) return undefined
  const { email, exp, iat, nbf, sid, sub } = claims
  if (typeof iat !== "number" || typeof exp !== "number") return undefined
  if (nbf !== undefined && typeof nbf !== "number") return undefined
  if (sid !== undefined && typeof sid !== "string") return undefined
  if (typeof sub !== "string" || typeof email !== "string") return undefined
  return { claims: sid === undefined ? { accountId: sub, email } : { accountId: sub, email, sessionId: sid }, exp, nbf }
}

const inForce = (token: SignedToken, nowSeconds: number): Option.Option<TokenClaims> =>
  token.exp > nowSeconds && (token.nbf === undefined || token.nbf <= nowSeconds)
    ? Option.some(token.claims)
    : Option.none()

/**
 * Verifies a compact HS256 JWT with a synchronous HMAC-SHA256 (`sign`, made once per key by
 * `hmacSha256With`): the same decision as `jose.jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims:
 * ["sub", "exp", "iat"] })`. Refused: anything not three base64url segments, a header whose `alg` is
 * not `HS256` (so `none`) or that names `crit` extensions, a signature that does not match, claims
 * that are not a JSON object, missing `sub`/`exp`/`iat`, non-numeric `exp`/`iat`/`nbf`, an `exp` at
 * or before `nowSeconds`, an `nbf` after it, and a `sub`, `email` or `sid` (when present) that is
 * not a string. A token without `sid` verifies here; the request middleware refuses it.
 */
export const verifyHs256 = (
  sign: (message: string) => Uint8Array,
  token: string,
  nowSeconds: number
): Option.Option<TokenClaims> => {
  const signed = readHs256(sign, token)
  return signed === undefined ? Option.none() : inForce(signed, nowSeconds)
}

/** Tokens whose signature was checked, kept by their text; emptied when it holds this many. */
const CHECKED_TOKENS = 10_000

/**
 * `verifyHs256` with the signature checked once per token: a client sends the same token on every
 * request for days, and the HMAC and two JSON decodes were ~10 µs of each. The times are compared
 * with the clock on every call; a refused token is not kept (a stream of forged ones cannot fill it).
 */
export const makeVerifier = (sign: (message: string) => Uint8Array) => {
  const checked = new Map<string, SignedToken>()
  return (token: string, nowSeconds: number): Option.Option<TokenClaims> => {
    let signed = checked.get(token)
    if (signed === undefined) {
      signed = readHs256(sign, token)
      if (signed === undefined) return Option.none()
      if (checked.size >= CHECKED_TOKENS) checked.clear()
      checked.set(token, signed)
    }
    return inForce(signed, nowSeconds)
  }
}

/** Access tokens: HS256 JWTs valid for 7 days, with no refresh token (spec §5). */
export class Tokens extends Context.Tag("@roda/core/Tokens")<Tokens, {
  readonly issue: (claims: TokenClaims) => Effect.Effect<string>
  /** The claims of a valid, unexpired token; none for anything else. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<TokenClaims>>
}>() {
  /**
   * Issues with `jose`; verifies with a synchronous HMAC, the key prepared once (no WebCrypto
   * `importKey` nor promise per request) and each token's signature checked once (`makeVerifier`).
   */
  static readonly layer = Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const options = yield* Options
      const bytes = new TextEncoder().encode(Redacted.value(options.jwtSecret))
      const verify = makeVerifier(hmacSha256With(bytes))
      let signKey: Promise<CryptoKey> | undefined
      const signingKey = () =>
        signKey ??= crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      return {
        issue: (claims) =>
          Effect.flatMap(Clock.currentTimeMillis, (millis) => {
            const now = Math.floor(millis / 1000)
            return Effect.promise(async () =>
              new SignJWT(
                claims.sessionId === undefined
                  ? { email: claims.email }
                  : { email: claims.email, sid: claims.sessionId }
              )
                .setProtectedHeader({ alg: "HS256", typ: "JWT" })
                .setSubject(claims.accountId)
                .setIssuedAt(now)
                .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
                .sign(await signingKey())
            )
          }),
        verify: (token) => Effect.map(Clock.currentTimeMillis, (millis) => verify(token, Math.floor(millis / 1000)))
      }
    })
  )
}
