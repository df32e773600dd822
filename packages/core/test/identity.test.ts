import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose"
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { MeAnswer } from "../src/identity/Api"
import { nowSeconds, sessionOf, signToken, TEST_JWT_SECRET, uniqueAddress } from "./support/auth"
import { expectPlainJson } from "./support/envelope"
import {
  client,
  makeCommunity,
  PASSWORD,
  register,
  registerUnverified,
  startRoda,
  uniqueEmail
} from "./support/harness"
import { outboxFor, passwordLinkFor, waitForMail } from "./support/outbox"
import { expireLinks, query } from "./support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const PASSWORD_RULE =
  "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter and a number"
const NEW_PASSWORD = "Another456"
const SEVEN_DAYS = 7 * 24 * 60 * 60

const INVALID_CREDENTIALS = { success: false, code: "invalid_credentials", message: "E-mail ou senha inválidos." }
const TOKEN_REQUIRED = { success: false, code: "token_required", message: "Authentication token is required" }
const TOKEN_INVALID = { success: false, code: "token_invalid", message: "Invalid or expired token" }
const TOO_MANY = {
  success: false,
  code: "too_many_attempts",
  message: "Muitas tentativas de login. Tente novamente mais tarde."
}
const LINK_GONE = { success: false, code: "link_expired", message: "Este link já foi usado ou expirou." }

const login = (email: string, password: string, clientAddress = uniqueAddress(), client = api) =>
  client.post("/api/auth/login", { email, password }, { clientAddress })

const me = (token: string) => api.get("/api/auth/me", { token })

describe("POST /api/auth/register", () => {
  it("creates an account: 201 with data.id and a token for it", async () => {
    const email = uniqueEmail("reg")
    const reply = await api.post("/api/auth/register", {
      fullName: "  Ana Souza ",
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({
      success: true,
      message: "Conta criada com sucesso.",
      data: { id: expect.stringMatching(UUID_V7), email, fullName: "Ana Souza", token: expect.any(String) }
    })
    const owner = await me(reply.body.data.token)
    expect(owner.status).toBe(200)
    expect(owner.body.data).toMatchObject({ id: reply.body.data.id, email, fullName: "Ana Souza" })
  })

  it("answers in English with Accept-Language: en", async () => {
    const reply = await api.post(
      "/api/auth/register",
      { fullName: "Ann", email: uniqueEmail(), password: PASSWORD },
      { headers: { "accept-language": "en" } }
    )
    expect(reply.status).toBe(201)
    expect(reply.body.message).toBe("Account created.")
  })

  it.each([
    ["shorter than 8 characters", "Abcde12"],
    ["without an uppercase letter", "abcdefg1"],
    ["without a lowercase letter", "ABCDEFG1"],
    ["without a number", "Abcdefgh"],
    ["empty", ""],
    ["longer than 200 characters", `Aa1${"x".repeat(198)}`]
  ])("refuses a password %s: 400 naming password with the rule", async (_, password) => {
    const reply = await api.post("/api/auth/register", { fullName: "Ana", email: uniqueEmail(), password })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: PASSWORD_RULE,
      errors: [{ param: "password", msg: PASSWORD_RULE, location: "body" }]
    })
  })

  it("gives the password rule in English whatever the language (format validation)", async () => {
    const reply = await api.post(
      "/api/auth/register",
      { fullName: "Ana", email: uniqueEmail(), password: "weak" },
      { headers: { "accept-language": "pt-BR" } }
    )
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ param: "password", msg: PASSWORD_RULE, location: "body" }])
  })

  it("accepts a password of exactly 8 characters", async () => {
    const reply = await api.post("/api/auth/register", { fullName: "Ana", email: uniqueEmail(), password: "Abcdef12" })
    expect(reply.status).toBe(201)
  })

  it.each(["not-an-email", "ana@localhost", "ana souza@roda.test", "@roda.test", ""])(
    "refuses the e-mail %j: 400 naming email",
    async (email) => {
      const reply = await api.post("/api/auth/register", { fullName: "Ana", email, password: PASSWORD })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({
        success: false,
        code: "invalid_input",
        message: "must be a valid e-mail address",
        errors: [{ param: "email", msg: "must be a valid e-mail address", location: "body" }]
      })
    }
  )

  it("names every missing field", async () => {
    const reply = await api.post("/api/auth/register", {})
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: "fullName is required",
      errors: [
        { param: "fullName", msg: "fullName is required", location: "body" },
        { param: "email", msg: "email is required", location: "body" },
        { param: "password", msg: "password is required", location: "body" }
      ]
    })
  })

  it("names the one missing field and a blank name", async () => {
    const missing = await api.post("/api/auth/register", { fullName: "Ana", email: uniqueEmail() })
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([{ param: "password", msg: "password is required", location: "body" }])

    const blank = await api.post("/api/auth/register", { fullName: "   ", email: uniqueEmail(), password: PASSWORD })
    expect(blank.status).toBe(400)
    expect(blank.body.errors).toEqual([{
      param: "fullName",
      msg: "must be between 1 and 200 characters",
      location: "body"
    }])
  })

  it("refuses an e-mail already registered, also in another case: 409", async () => {
    const user = await register(api)
    const again = await api.post("/api/auth/register", { fullName: "Other", email: user.email, password: PASSWORD })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ success: false, code: "email_taken", message: "Este e-mail já está cadastrado." })

    const otherCase = await api.post("/api/auth/register", {
      fullName: "Other",
      email: user.email.toUpperCase(),
      password: PASSWORD
    })
    expect(otherCase.status).toBe(409)
    expect(otherCase.body).toEqual({ success: false, code: "email_taken", message: "Este e-mail já está cadastrado." })

    const english = await api.post(
      "/api/auth/register",
      { fullName: "Other", email: user.email, password: PASSWORD },
      { headers: { "accept-language": "en" } }
    )
    expect(english.status).toBe(409)
    expect(english.body).toEqual({ success: false, code: "email_taken", message: "This e-mail is already registered." })
  })
})

describe("POST /api/auth/login", () => {
  it("answers exactly success, message, data.token and data.member {id, email, fullName}", async () => {
    const user = await register(api, "Bruno Lima")
    const reply = await login(user.email, PASSWORD)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      success: true,
      message: "Login realizado com sucesso.",
      data: { token: expect.any(String), member: { id: user.id, email: user.email, fullName: "Bruno Lima" } }
    })
    const owner = await me(reply.body.data.token)
    expect(owner.status).toBe(200)
    expect(owner.body.data.id).toBe(user.id)
  })

  it("finds the account whatever the case of the e-mail and surrounding spaces", async () => {
    const user = await register(api)
    const reply = await login(`  ${user.email.toUpperCase()}  `, PASSWORD)
    expect(reply.status).toBe(200)
    expect(reply.body.data.member.id).toBe(user.id)
  })

  it("issues an HS256 JWT for the account, valid for exactly 7 days", async () => {
    const user = await register(api)
    const before = nowSeconds()
    const reply = await login(user.email, PASSWORD)
    const token: string = reply.body.data.token
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "HS256", typ: "JWT" })
    const claims = decodeJwt(token)
    expect(claims.sub).toBe(user.id)
    expect(claims.exp! - claims.iat!).toBe(SEVEN_DAYS)
    expect(claims.iat).toBeGreaterThanOrEqual(before - 1)
    expect(claims.iat).toBeLessThanOrEqual(nowSeconds() + 1)
    const verified = await jwtVerify(token, new TextEncoder().encode(TEST_JWT_SECRET), { algorithms: ["HS256"] })
    expect(verified.payload.sub).toBe(user.id)

    const registered = decodeJwt(user.token)
    expect(decodeProtectedHeader(user.token).alg).toBe("HS256")
    expect(registered.exp! - registered.iat!).toBe(SEVEN_DAYS)
  })

  it("gives a wrong password and an unknown e-mail the same 401", async () => {
    const user = await register(api)
    const wrongPassword = await login(user.email, "Wrong1234")
    const unknownEmail = await login(uniqueEmail("nobody"), PASSWORD)
    expect(wrongPassword.status).toBe(401)
    expect(unknownEmail.status).toBe(401)
    expect(wrongPassword.body).toEqual(INVALID_CREDENTIALS)
    expect(unknownEmail.body).toEqual(INVALID_CREDENTIALS)
    expect(wrongPassword.headers.get("retry-after")).toBeNull()

    const english = await api.post(
      "/api/auth/login",
      { email: user.email, password: "Wrong1234" },
      { clientAddress: uniqueAddress(), headers: { "accept-language": "en" } }
    )
    expect(english.body).toEqual({
      success: false,
      code: "invalid_credentials",
      message: "Invalid e-mail or password."
    })
  })

  it("refuses a body without password: 400", async () => {
    const reply = await api.post("/api/auth/login", { email: uniqueEmail() })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ param: "password", msg: "password is required", location: "body" }])
  })

  it("allows 5 failures per account and address by default, then answers 429 with Retry-After", async () => {
    const user = await register(api)
    const address = uniqueAddress()
    for (let i = 0; i < 5; i++) {
      const reply = await login(user.email, "Wrong1234", address)
      expect(reply.status).toBe(401)
    }
    const blocked = await login(user.email, PASSWORD, address)
    expect(blocked.status).toBe(429)
    expect(blocked.body).toEqual(TOO_MANY)
    const retryAfter = Number(blocked.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
  })

  describe("throttling per account and address (loginAttemptsPerAccount: 2)", () => {
    const strict = startRoda({ loginAttemptsPerAccount: 2 })
    const strictApi = client(strict)
    afterAll(() => strict.dispose())

    it("blocks the account from that address after 2 failures, even with the right password", async () => {
      const user = await register(strictApi)
      const address = uniqueAddress()
      expect((await login(user.email, "Wrong1234", address, strictApi)).status).toBe(401)
      expect((await login(user.email, "Wrong1234", address, strictApi)).status).toBe(401)

      const blocked = await login(user.email, PASSWORD, address, strictApi)
      expect(blocked.status).toBe(429)
      expect(blocked.body).toEqual(TOO_MANY)
      const retryAfter = Number(blocked.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(15 * 60)

      const english = await strictApi.post(
        "/api/auth/login",
        { email: user.email, password: PASSWORD },
        { clientAddress: address, headers: { "accept-language": "en" } }
      )
      expect(english.status).toBe(429)
      expect(english.body).toEqual({
        success: false,
        code: "too_many_attempts",
        message: "Too many login attempts. Try again later."
      })
      // the holder, elsewhere, is not locked out (issue 10, item 5)
      expect((await login(user.email, PASSWORD, uniqueAddress(), strictApi)).status).toBe(200)
    })

    it("does not block other accounts signing in from the same address", async () => {
      const address = uniqueAddress()
      const victim = await register(strictApi)
      const other = await register(strictApi)
      await login(victim.email, "Wrong1234", address, strictApi)
      await login(victim.email, "Wrong1234", address, strictApi)
      expect((await login(victim.email, PASSWORD, address, strictApi)).status).toBe(429)
      expect((await login(other.email, PASSWORD, address, strictApi)).status).toBe(200)
    })

    it("throttles an unknown e-mail exactly like a registered one", async () => {
      const email = uniqueEmail("nobody")
      const address = uniqueAddress()
      expect((await login(email, "Wrong1234", address, strictApi)).status).toBe(401)
      expect((await login(email, "Wrong1234", address, strictApi)).status).toBe(401)
      const blocked = await login(email, "Wrong1234", address, strictApi)
      expect(blocked.status).toBe(429)
      expect(blocked.body).toEqual(TOO_MANY)
    })

    it("counts the e-mail whatever its case", async () => {
      const user = await register(strictApi)
      const address = uniqueAddress()
      await login(user.email.toUpperCase(), "Wrong1234", address, strictApi)
      await login(` ${user.email} `, "Wrong1234", address, strictApi)
      expect((await login(user.email, PASSWORD, address, strictApi)).status).toBe(429)
    })

    it("starts counting again after a successful sign-in", async () => {
      const user = await register(strictApi)
      expect((await login(user.email, "Wrong1234", uniqueAddress(), strictApi)).status).toBe(401)
      expect((await login(user.email, PASSWORD, uniqueAddress(), strictApi)).status).toBe(200)
      expect((await login(user.email, "Wrong1234", uniqueAddress(), strictApi)).status).toBe(401)
      expect((await login(user.email, PASSWORD, uniqueAddress(), strictApi)).status).toBe(200)
    })

    it("lets the account in again once the window has passed", async () => {
      const user = await register(strictApi)
      const address = uniqueAddress()
      await login(user.email, "Wrong1234", address, strictApi)
      await login(user.email, "Wrong1234", address, strictApi)
      expect((await login(user.email, PASSWORD, address, strictApi)).status).toBe(429)

      const moved = await query(
        strict,
        (sql) =>
          sql`UPDATE login_failures SET window_started_at = window_started_at - interval '16 minutes'
          WHERE key = ${`account-address:${user.email}|${address}`} RETURNING key`
      )
      expect(moved).toHaveLength(1)
      expect((await login(user.email, PASSWORD, address, strictApi)).status).toBe(200)
    })
  })

  describe("throttling per client address", () => {
    const strict = startRoda({ loginAttemptsPerAddress: 3, loginAttemptsPerAccount: 100 })
    const strictApi = client(strict)
    afterAll(() => strict.dispose())

    it("blocks an address after 3 failures on any accounts, but not other addresses", async () => {
      const address = uniqueAddress()
      const user = await register(strictApi)
      for (let i = 0; i < 3; i++) {
        const reply = await login(uniqueEmail("probe"), "Wrong1234", address, strictApi)
        expect(reply.status).toBe(401)
      }
      const blocked = await login(user.email, PASSWORD, address, strictApi)
      expect(blocked.status).toBe(429)
      expect(blocked.body).toEqual(TOO_MANY)
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0)

      expect((await login(user.email, PASSWORD, uniqueAddress(), strictApi)).status).toBe(200)
    })

    it("is not reset by a successful sign-in from that address", async () => {
      const address = uniqueAddress()
      const user = await register(strictApi)
      await login(uniqueEmail("probe"), "Wrong1234", address, strictApi)
      await login(uniqueEmail("probe"), "Wrong1234", address, strictApi)
      expect((await login(user.email, PASSWORD, address, strictApi)).status).toBe(200)
      await login(uniqueEmail("probe"), "Wrong1234", address, strictApi)
      expect((await login(user.email, PASSWORD, address, strictApi)).status).toBe(429)
    })
  })

  it("allows 30 failures per address by default", async () => {
    const address = uniqueAddress()
    const user = await register(api)
    for (let i = 0; i < 30; i++) {
      const reply = await login(uniqueEmail("probe"), "Wrong1234", address)
      expect(reply.status).toBe(401)
    }
    const blocked = await login(user.email, PASSWORD, address)
    expect(blocked.status).toBe(429)
    expect(blocked.body).toEqual(TOO_MANY)
  })
})

describe("GET /api/auth/me", () => {
  it("answers the owner of the token", async () => {
    const user = await registerUnverified(api, "Carla Dias")
    const reply = await me(user.token)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      success: true,
      message: "Conta encontrada.",
      data: {
        id: user.id,
        email: user.email,
        fullName: "Carla Dias",
        emailVerified: false,
        isPlatformAdmin: false,
        createdAt: expect.stringMatching(ISO_TIME)
      }
    })
    expectPlainJson(MeAnswer, reply.body)
  })

  it("tells a platform operator so", async () => {
    const operatorEmail = uniqueEmail("operator")
    const operated = startRoda({ platformAdminEmails: [operatorEmail] })
    try {
      const operatorApi = client(operated)
      const operator = await registerUnverified(operatorApi, "Op", operatorEmail.toUpperCase())
      // a listed e-mail counts once verified: its holder used a link sent to it
      const before = await operatorApi.get("/api/auth/me", { token: operator.token })
      expect(before.body.data).toMatchObject({ emailVerified: false, isPlatformAdmin: false })
      expect((await operatorApi.post("/api/auth/recovery-password", { email: operatorEmail })).status).toBe(200)
      await waitForMail(operated, operatorEmail, "password-recovery")
      const link = await passwordLinkFor(operated, operatorEmail, "password-recovery")
      const set = await operatorApi.post("/api/auth/set-password", {
        id: link.id,
        token: link.token,
        password: PASSWORD
      })
      expect(set.status).toBe(200)
      const reply = await operatorApi.get("/api/auth/me", { token: operator.token })
      expect(reply.status).toBe(200)
      expect(reply.body.data).toMatchObject({ emailVerified: true, isPlatformAdmin: true })
    } finally {
      await operated.dispose()
    }
  })

  it("answers 401 `Authentication token is required` without a token", async () => {
    const reply = await api.get("/api/auth/me")
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual(TOKEN_REQUIRED)
  })

  it("accepts a token signed with the server's secret (so the refusals below are about the token)", async () => {
    const user = await register(api)
    const token = await signToken({
      sub: user.id,
      email: user.email,
      sid: sessionOf(user.token),
      iat: nowSeconds() - 60,
      exp: nowSeconds() + 60
    })
    expect((await me(token)).status).toBe(200)
    // the same without the session (a token from before sessions) is refused
    const noSession = await signToken({
      sub: user.id,
      email: user.email,
      iat: nowSeconds() - 60,
      exp: nowSeconds() + 60
    })
    expect((await me(noSession)).status).toBe(401)
  })

  const refusals: Array<[string, (user: { id: string; email: string; token: string }) => Promise<string>]> = [
    ["garbage after Bearer", async () => "Bearer not-a-jwt"],
    ["the word Bearer alone", async () => "Bearer"],
    ["a valid token without the word Bearer", async (user) => user.token],
    ["another scheme", async (user) => `Token ${user.token}`],
    ["Basic credentials", async () => `Basic ${Buffer.from("ana:Secret123").toString("base64")}`],
    ["two spaces after Bearer", async (user) => `Bearer  ${user.token}`],
    ["something after the token", async (user) => `Bearer ${user.token} extra`],
    ["a tampered token", async (user) => `Bearer ${user.token.slice(0, -2)}${user.token.endsWith("AA") ? "BB" : "AA"}`],
    [
      "an expired token",
      async (user) =>
        `Bearer ${await signToken({
          sub: user.id,
          email: user.email,
          sid: sessionOf(user.token),
          iat: nowSeconds() - 8 * 86400,
          exp: nowSeconds() - 86400
        })}`
    ],
    [
      "a token signed with another secret",
      async (user) =>
        `Bearer ${await signToken({
          secret: "another-secret-that-is-also-long-enough",
          sub: user.id,
          email: user.email,
          sid: sessionOf(user.token),
          iat: nowSeconds(),
          exp: nowSeconds() + 3600
        })}`
    ],
    [
      "a token of an account that does not exist",
      async (user) =>
        `Bearer ${await signToken({
          sub: randomUUID(),
          sid: sessionOf(user.token),
          iat: nowSeconds(),
          exp: nowSeconds() + 3600
        })}`
    ],
    ["an unsigned token (alg none)", async (user) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
      const payload = { sub: user.id, email: user.email, iat: nowSeconds(), exp: nowSeconds() + 3600 }
      return `Bearer ${part({ alg: "none", typ: "JWT" })}.${part(payload)}.`
    }]
  ]

  it.each(refusals)("answers 401 `Invalid or expired token` for %s", async (_, authorization) => {
    const user = await register(api)
    const reply = await api.get("/api/auth/me", { headers: { authorization: await authorization(user) } })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual(TOKEN_INVALID)
  })
})

describe("PUT /api/auth/change-password", () => {
  const change = (token: string | undefined, body: unknown) => api.put("/api/auth/change-password", body, { token })

  it("needs a token", async () => {
    const reply = await change(undefined, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual(TOKEN_REQUIRED)
  })

  it("refuses a wrong current password: 400 naming currentPassword", async () => {
    const user = await register(api)
    const reply = await change(user.token, { currentPassword: "Wrong1234", newPassword: NEW_PASSWORD })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "current_password_wrong",
      message: "A senha atual está incorreta.",
      errors: [{ param: "currentPassword", msg: "A senha atual está incorreta.", location: "body" }]
    })
    expect((await login(user.email, PASSWORD)).status).toBe(200)
  })

  it("refuses a weak new password: 400 naming newPassword", async () => {
    const user = await register(api)
    const reply = await change(user.token, { currentPassword: PASSWORD, newPassword: "weakpassword" })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: PASSWORD_RULE,
      errors: [{ param: "newPassword", msg: PASSWORD_RULE, location: "body" }]
    })
    expect((await login(user.email, PASSWORD)).status).toBe(200)
  })

  it("changes the password; tokens already issued stay valid", async () => {
    const user = await register(api)
    const reply = await change(user.token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ success: true, message: "Senha alterada com sucesso.", data: null })

    const withNew = await login(user.email, NEW_PASSWORD)
    expect(withNew.status).toBe(200)
    expect(withNew.body.data.member.id).toBe(user.id)

    const withOld = await login(user.email, PASSWORD)
    expect(withOld.status).toBe(401)
    expect(withOld.body).toEqual(INVALID_CREDENTIALS)

    const oldToken = await me(user.token)
    expect(oldToken.status).toBe(200)
    expect(oldToken.body.data.id).toBe(user.id)
  })
})

describe("POST /api/auth/recovery-password", () => {
  const recover = (email: string) => api.post("/api/auth/recovery-password", { email })

  it("answers the same for a registered and an unknown e-mail", async () => {
    const user = await register(api)
    const known = await recover(user.email)
    const unknown = await recover(uniqueEmail("nobody"))
    expect(known.status).toBe(200)
    expect(known.body).toEqual({
      success: true,
      message: "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
      data: null
    })
    expect(unknown.status).toBe(known.status)
    expect(unknown.body).toEqual(known.body)
  })

  it("writes a recovery e-mail with a single-use link valid for 1 hour, only for a registered e-mail", async () => {
    const user = await register(api)
    const unknownEmail = uniqueEmail("nobody")
    await recover(user.email.toUpperCase())
    await recover(unknownEmail)

    // written just after the answer (off the request path)
    const mails = await waitForMail(roda, user.email, "password-recovery")
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ recipient: user.email, kind: "password-recovery" })
    const link = await passwordLinkFor(roda, user.email, "password-recovery")
    const url = new URL(link.url)
    expect(url.origin + url.pathname).toBe("http://roda.test/set-password")
    expect(link.id).toBe(user.id)
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)

    expect(await outboxFor(roda, unknownEmail)).toHaveLength(0)

    const [stored] = await query<{ purpose: string; lifetime: number; secretHash: string }>(
      roda,
      (sql) =>
        sql`SELECT purpose, extract(epoch FROM expires_at - created_at)::float8 AS lifetime, secret_hash
        FROM password_links WHERE account_id = ${user.id} AND purpose <> 'verify-email'`
    )
    expect(stored?.purpose).toBe("recovery")
    expect(stored?.lifetime).toBeGreaterThan(3600 - 60)
    expect(stored?.lifetime).toBeLessThan(3600 + 60)
    // only a hash of the secret is kept
    expect(stored?.secretHash).not.toContain(link.token)
  })

  it("refuses a malformed e-mail: 400 naming email", async () => {
    const reply = await recover("not-an-email")
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ param: "email", msg: "must be a valid e-mail address", location: "body" }])
  })
})

describe("POST /api/auth/set-password", () => {
  const setPassword = (body: unknown) => api.post("/api/auth/set-password", body)

  /** A registered account and the link of a recovery request. */
  const recovering = async () => {
    const user = await register(api)
    expect((await api.post("/api/auth/recovery-password", { email: user.email })).status).toBe(200)
    await waitForMail(roda, user.email, "password-recovery")
    return { user, link: await passwordLinkFor(roda, user.email, "password-recovery") }
  }

  it("sets the password from a recovery link; the link then answers 410", async () => {
    const { user, link } = await recovering()
    const reply = await setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ success: true, message: "Senha definida com sucesso.", data: null })

    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200)
    expect((await login(user.email, PASSWORD)).status).toBe(401)

    const reused = await setPassword({ id: link.id, token: link.token, password: "Third789x" })
    expect(reused.status).toBe(410)
    expect(reused.body).toEqual(LINK_GONE)
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200)
  })

  it("refuses a wrong token with 400 and leaves the link usable", async () => {
    const { user, link } = await recovering()
    const wrong = await setPassword({
      id: link.id,
      token: `${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`,
      password: NEW_PASSWORD
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({
      success: false,
      code: "link_invalid",
      message: "Link inválido.",
      errors: [{ param: "token", msg: "Link inválido.", location: "body" }]
    })
    expect((await login(user.email, PASSWORD)).status).toBe(200)
    expect((await setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD })).status).toBe(200)
  })

  it("refuses the token of one account used with another id: 400", async () => {
    const { link } = await recovering()
    const other = await register(api)
    const reply = await setPassword({ id: other.id, token: link.token, password: NEW_PASSWORD })
    expect(reply.status).toBe(400)
    const unknown = await setPassword({ id: randomUUID(), token: link.token, password: NEW_PASSWORD })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe("Link inválido.")
  })

  it("answers 410 for an expired link", async () => {
    const { user, link } = await recovering()
    const expired = await expireLinks(roda, user.id)
    expect(expired).toHaveLength(1)
    const reply = await setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD })
    expect(reply.status).toBe(410)
    expect(reply.body).toEqual(LINK_GONE)
    expect((await login(user.email, PASSWORD)).status).toBe(200)
  })

  it("closes the account's other open links when one is used", async () => {
    const { user, link: first } = await recovering()
    await api.post("/api/auth/recovery-password", { email: user.email })
    await waitForMail(roda, user.email, "password-recovery", 2)
    const second = await passwordLinkFor(roda, user.email, "password-recovery")
    expect(second.token).not.toBe(first.token)

    expect((await setPassword({ id: second.id, token: second.token, password: NEW_PASSWORD })).status).toBe(200)
    const older = await setPassword({ id: first.id, token: first.token, password: "Third789x" })
    expect(older.status).toBe(410)
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200)
  })

  it("refuses a weak password: 400 naming password, and leaves the link usable", async () => {
    const { link } = await recovering()
    const reply = await setPassword({ id: link.id, token: link.token, password: "password" })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ param: "password", msg: PASSWORD_RULE, location: "body" }])
    expect((await setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD })).status).toBe(200)
  })

  it("refuses a malformed id: 400 naming id", async () => {
    const reply = await setPassword({ id: "not-a-uuid", token: "whatever", password: NEW_PASSWORD })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: "must be a valid UUID",
      errors: [{ param: "id", msg: "must be a valid UUID", location: "body" }]
    })
  })

  it("refuses an empty token and missing fields: 400", async () => {
    const empty = await setPassword({ id: randomUUID(), token: "", password: NEW_PASSWORD })
    expect(empty.status).toBe(400)
    expect(empty.body.errors).toHaveLength(1)
    expect(empty.body.errors[0]).toMatchObject({ param: "token", location: "body" })

    const missing = await setPassword({})
    expect(missing.status).toBe(400)
    expect(missing.body.errors.map((e: { param: string }) => e.param)).toEqual(["id", "token", "password"])
  })

  it("completes an invitation: the invited account sets its password and signs in", async () => {
    const { owner, community } = await makeCommunity(api)
    const email = uniqueEmail("invited")
    const invited = await api.post("/api/profiles/invite", { email, fullName: "Dora Invited" }, {
      token: owner.token,
      community: community.id
    })
    expect(invited.status).toBe(201)

    const link = await passwordLinkFor(roda, email, "invite")
    expect(link.id).toBe(invited.body.data.accountId)
    const [stored] = await query<{ lifetime: number }>(
      roda,
      (sql) =>
        sql`SELECT extract(epoch FROM expires_at - created_at)::float8 AS lifetime FROM password_links
        WHERE account_id = ${link.id} AND purpose = 'invite'`
    )
    expect(stored?.lifetime).toBeGreaterThan(SEVEN_DAYS - 60)
    expect(stored?.lifetime).toBeLessThan(SEVEN_DAYS + 60)

    expect((await login(email, NEW_PASSWORD)).status).toBe(401)
    expect((await setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD })).status).toBe(200)
    const signedIn = await login(email, NEW_PASSWORD)
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data.member).toEqual({ id: link.id, email, fullName: "Dora Invited" })
  })
})
