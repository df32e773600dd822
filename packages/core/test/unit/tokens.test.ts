import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { base64url, jwtVerify, SignJWT, UnsecuredJWT } from "jose"
import { createHmac } from "node:crypto"
import { hmacSha256With } from "../../src/platform/bytes"
import { defaultOptions, Options, secret } from "../../src/platform/Options"
import { makeVerifier, TOKEN_LIFETIME_SECONDS, Tokens, verifyHs256 } from "../../src/platform/Tokens"

const SECRET = "unit-test-secret-that-is-long-enough-for-hs256"
const key = hmacSha256With(new TextEncoder().encode(SECRET))
const NOW = 1_750_000_000

const sign = (
  claims: Record<string, unknown> = { email: "ana@roda.test" },
  times: { iat?: number; exp?: number } = {},
  secretText = SECRET
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject("acc-1")
    .setIssuedAt(times.iat ?? NOW - 60)
    .setExpirationTime(times.exp ?? NOW + 3600)
    .sign(new TextEncoder().encode(secretText))

const json = (value: unknown) => base64url.encode(JSON.stringify(value))
/** `header.payload.signature` with the right HMAC-SHA256, whatever the header says. */
const signRaw = (header: unknown, payload: string) => {
  const input = `${json(header)}.${payload}`
  return `${input}.${createHmac("sha256", SECRET).update(input).digest("base64url")}`
}
const segments = (token: string) => token.split(".") as [string, string, string]

describe("verifyHs256", () => {
  it("accepts a token issued by jose", async () => {
    expect(verifyHs256(key, await sign(), NOW)).toEqual(Option.some({ accountId: "acc-1", email: "ana@roda.test" }))
  })

  it("refuses a wrong signature and a tampered payload", async () => {
    const [header, payload, signature] = segments(await sign())
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`
    expect(verifyHs256(key, `${header}.${payload}.${flipped}`, NOW)).toEqual(Option.none())
    expect(verifyHs256(key, `${header}.${payload}.${signature.slice(0, -2)}`, NOW)).toEqual(Option.none())
    const forged = json({ email: "root@roda.test", sub: "acc-2", iat: NOW, exp: NOW + 3600 })
    expect(verifyHs256(key, `${header}.${forged}.${signature}`, NOW)).toEqual(Option.none())
  })

  it("refuses a token signed with another secret", async () => {
    expect(verifyHs256(key, await sign(undefined, undefined, `${SECRET}-other`), NOW)).toEqual(Option.none())
  })

  it("refuses alg none, another algorithm and crit extensions, even with the right signature", async () => {
    const unsecured = new UnsecuredJWT({ email: "ana@roda.test" }).setSubject("acc-1").setIssuedAt(NOW)
      .setExpirationTime(NOW + 3600).encode()
    expect(verifyHs256(key, unsecured, NOW)).toEqual(Option.none())
    const [, payload, signature] = segments(await sign())
    expect(verifyHs256(key, `${json({ alg: "none" })}.${payload}.`, NOW)).toEqual(Option.none())
    for (const header of [{ alg: "none" }, { alg: "HS512", typ: "JWT" }, { alg: "hs256" }, { typ: "JWT" }]) {
      expect(verifyHs256(key, `${json(header)}.${payload}.${signature}`, NOW)).toEqual(Option.none())
      expect(verifyHs256(key, signRaw(header, payload), NOW)).toEqual(Option.none())
    }
    expect(verifyHs256(key, signRaw({ alg: "HS256", crit: ["b64"], b64: false }, payload), NOW)).toEqual(Option.none())
    expect(verifyHs256(key, signRaw({ alg: "HS256", typ: "JWT" }, payload), NOW)).toEqual(
      Option.some({ accountId: "acc-1", email: "ana@roda.test" })
    )
  })

  it("refuses an expired token (exp at or before now) and one not yet valid", async () => {
    expect(verifyHs256(key, await sign(undefined, { exp: NOW }), NOW)).toEqual(Option.none())
    expect(verifyHs256(key, await sign(undefined, { exp: NOW - 1 }), NOW)).toEqual(Option.none())
    expect(Option.isSome(verifyHs256(key, await sign(undefined, { exp: NOW + 1 }), NOW))).toBe(true)
    const early = await new SignJWT({ email: "ana@roda.test", nbf: NOW + 60 })
      .setProtectedHeader({ alg: "HS256" }).setSubject("acc-1").setIssuedAt(NOW).setExpirationTime(NOW + 3600)
      .sign(new TextEncoder().encode(SECRET))
    expect(verifyHs256(key, early, NOW)).toEqual(Option.none())
  })

  it("refuses missing or mistyped claims", async () => {
    const noEmail = await sign({})
    expect(verifyHs256(key, noEmail, NOW)).toEqual(Option.none())
    const noIat = await new SignJWT({ email: "ana@roda.test" }).setProtectedHeader({ alg: "HS256" })
      .setSubject("acc-1").setExpirationTime(NOW + 3600).sign(new TextEncoder().encode(SECRET))
    expect(verifyHs256(key, noIat, NOW)).toEqual(Option.none())
    const claims = { email: "ana@roda.test", sub: "acc-1", iat: NOW, exp: NOW + 3600 }
    expect(Option.isSome(verifyHs256(key, signRaw({ alg: "HS256" }, json(claims)), NOW))).toBe(true)
    for (const mistyped of [{ exp: String(NOW + 3600) }, { iat: String(NOW) }, { nbf: "0" }, { email: null }]) {
      expect(verifyHs256(key, signRaw({ alg: "HS256" }, json({ ...claims, ...mistyped })), NOW)).toEqual(Option.none())
    }
    const numericSub = await new SignJWT({ email: "ana@roda.test", sub: 7 as unknown as string })
      .setProtectedHeader({ alg: "HS256" }).setIssuedAt(NOW).setExpirationTime(NOW + 3600)
      .sign(new TextEncoder().encode(SECRET))
    expect(verifyHs256(key, numericSub, NOW)).toEqual(Option.none())
  })

  it("refuses malformed tokens: bad base64url, padding, wrong segment count, non-JSON", async () => {
    const token = await sign()
    const [header, payload, signature] = segments(token)
    for (
      const bad of [
        "",
        "abc",
        `${header}.${payload}`,
        `${token}.extra`,
        `${header}..${signature}`,
        `.${payload}.${signature}`,
        `${header}.${payload}.`,
        `${header}=.${payload}.${signature}`,
        `${header}.${payload}.${signature}=`,
        `${header}.${payload}+.${signature}`,
        `${header}.${payload}.${signature.replace(/.$/, "*")}`,
        `${header}.${payload}.${signature} `,
        `${base64url.encode("not json")}.${payload}.${signature}`,
        `${json([1, 2])}.${payload}.${signature}`
      ]
    ) {
      expect(verifyHs256(key, bad, NOW)).toEqual(Option.none())
    }
  })

  it("agrees with jose on its own tokens", async () => {
    const token = await sign()
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      algorithms: ["HS256"],
      currentDate: new Date(NOW * 1000),
      requiredClaims: ["sub", "exp", "iat"]
    })
    expect(verifyHs256(key, token, NOW)).toEqual(Option.some({ accountId: payload.sub, email: payload.email }))
  })
})

describe("makeVerifier", () => {
  const counting = () => {
    let signatures = 0
    const verify = makeVerifier((message) => (signatures++, key(message)))
    return { verify, signatures: () => signatures }
  }

  it("checks a token's signature once, and its times on every call", async () => {
    const { signatures, verify } = counting()
    const token = await sign(undefined, { exp: NOW + 10 })
    expect(verify(token, NOW)).toEqual(Option.some({ accountId: "acc-1", email: "ana@roda.test" }))
    expect(verify(token, NOW + 9)).toEqual(Option.some({ accountId: "acc-1", email: "ana@roda.test" }))
    expect(signatures()).toBe(1)
    // kept, but expired now: refused
    expect(verify(token, NOW + 10)).toEqual(Option.none())
    const early = signRaw(
      { alg: "HS256" },
      json({ sub: "acc-1", email: "a@b.c", iat: NOW, exp: NOW + 99, nbf: NOW + 5 })
    )
    expect(verify(early, NOW)).toEqual(Option.none())
    expect(Option.isSome(verify(early, NOW + 5))).toBe(true)
  })

  it("gives the same decision as verifyHs256, and keeps no refused token", async () => {
    const { signatures, verify } = counting()
    const token = await sign()
    const [header, payload, signature] = segments(token)
    const forged = `${header}.${json({ sub: "acc-2", email: "x@y.z", iat: NOW, exp: NOW + 60 })}.${signature}`
    for (const candidate of [forged, await sign(undefined, undefined, `${SECRET}-other`), `${header}.${payload}.`]) {
      expect(verify(candidate, NOW)).toEqual(verifyHs256(key, candidate, NOW))
      expect(verify(candidate, NOW)).toEqual(Option.none())
    }
    // refused tokens are checked again each time: none was kept
    expect(signatures()).toBe(4)
  })
})

describe("Tokens.layer", () => {
  const layer = Tokens.layer.pipe(Layer.provide(Layer.succeed(Options, defaultOptions({ jwtSecret: secret(SECRET) }))))

  it.live("issues HS256 JWTs for 7 days that jose and the verifier both accept", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const token = yield* tokens.issue({ accountId: "acc-9", email: "bia@roda.test" })
      const { payload, protectedHeader } = yield* Effect.promise(() =>
        jwtVerify(token, new TextEncoder().encode(SECRET), { algorithms: ["HS256"] })
      )
      expect(protectedHeader).toEqual({ alg: "HS256", typ: "JWT" })
      expect(payload.sub).toBe("acc-9")
      expect(payload.exp! - payload.iat!).toBe(TOKEN_LIFETIME_SECONDS)
      expect(yield* tokens.verify(token)).toEqual(Option.some({ accountId: "acc-9", email: "bia@roda.test" }))
      expect(yield* tokens.verify(`${token}x`)).toEqual(Option.none())
    }).pipe(Effect.provide(layer)))

  it.live("carries the session as `sid`; a non-string `sid` is refused", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const token = yield* tokens.issue({ accountId: "acc-9", email: "bia@roda.test", sessionId: "ses-9" })
      expect(yield* tokens.verify(token)).toEqual(
        Option.some({ accountId: "acc-9", email: "bia@roda.test", sessionId: "ses-9" })
      )
      const claims = { email: "a@b.c", sub: "acc-1", iat: NOW, exp: NOW + 3600 }
      expect(verifyHs256(key, signRaw({ alg: "HS256" }, json({ ...claims, sid: 7 })), NOW)).toEqual(Option.none())
    }).pipe(Effect.provide(layer)))
})
