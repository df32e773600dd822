import { SignJWT } from "jose"
import { randomInt, randomUUID } from "node:crypto"
import type { Account } from "../../src/domain/Caller"
import { AccountId } from "../../src/domain/Ids"

/** The secret `startRoda()` signs tokens with (see harness.ts). */
export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-hs256"

/**
 * A client address of its own, so that sign-in throttling per address never mixes the tests of a
 * file (they share its database). In RFC 5952 form (no group with a leading zero), as the server
 * writes an address in its keys: a test can then find a key by the address it sent.
 */
const group = () => (0x1000 + randomInt(0xf000)).toString(16)
export const uniqueAddress = () => `2001:db8::${group()}:${group()}:${group()}`

/** An HS256 token with the given claims and times (seconds since the epoch). */
export const signToken = (options: {
  readonly secret?: string
  readonly sub?: string
  readonly email?: string
  /** The session (`sid`); a token without one is refused (tokens from before sessions). */
  readonly sid?: string
  readonly iat: number
  readonly exp: number
}) =>
  new SignJWT({
    email: options.email ?? "someone@roda.test",
    ...(options.sid === undefined ? {} : { sid: options.sid })
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(options.sub ?? randomUUID())
    .setIssuedAt(options.iat)
    .setExpirationTime(options.exp)
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET))

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The caller account services see for a signed-up test user (not an operator, e-mail not verified). */
export const accountOf = (user: { id: string; email: string; fullName: string }): Account => ({
  id: AccountId.make(user.id),
  email: user.email,
  fullName: user.fullName,
  isPlatformAdmin: false,
  emailVerified: false,
  createdAt: new Date()
})

/** The session (`sid`) a token names. */
export const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")).sid
