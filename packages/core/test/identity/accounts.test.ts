import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose"
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { MeAnswer, RegisterAnswer } from "../../src/identity/Api"
import type { Roda } from "../../src/index"
import { nowSeconds, sessionOf, signToken, TEST_JWT_SECRET, uniqueAddress } from "../support/auth"
import { bodyOf, errorBody, failsReply, okBody, okReply, statusOf, wireContract } from "../support/contractReplies"
import { expectPlainJson } from "../support/envelope"
import {
  client,
  makeCommunity,
  PASSWORD,
  register,
  registerUnverified,
  startRoda,
  uniqueEmail
} from "../support/harness"
import { outboxFor, passwordLinkFor, waitForMail } from "../support/outbox"
import { expireLinks, query } from "../support/sql"
import { meOf, signIn } from "./support"

// Contract calls through `typed`; input the contract's types cannot express (weak passwords,
// malformed e-mails and ids, missing fields, untrimmed names, hand-made Authorization headers) raw
// through `api`, read through the typed helpers of support/contractReplies.ts.
const roda = startRoda()
const api = client(roda)
const typed = wireContract(roda)
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

const login = (email: string, password: string, clientAddress = uniqueAddress(), on: Roda = roda) =>
  signIn(on, email, password, { clientAddress })

const me = (token: string) => meOf(roda, token)

describe("POST /api/auth/register", () => {
  it("creates an account: 201 with data.id and a token for it", async () => {
    const email = uniqueEmail("reg")
    const reply = await api.post("/api/auth/register", {
      fullName: "  Ana Souza ",
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD
    })
    expect(reply.status).toBe(201)
    expect(bodyOf(reply)).toEqual({
      success: true,
      message: "Conta criada com sucesso.",
      data: { id: expect.stringMatching(UUID_V7), email, fullName: "Ana Souza", token: expect.any(String) }
    })
    const registered = okBody(reply, RegisterAnswer.fields.data, 201)
    const { data: owner } = await okReply(me(registered.token), 200)
    expect(owner.data).toMatchObject({ id: registered.id, email, fullName: "Ana Souza" })
  })

  it("answers in English with Accept-Language: en", async () => {
    const { data: reply } = await okReply(
      typed.clientOf({ language: "en" }).identity.register({
        payload: { fullName: "Ann", email: uniqueEmail(), password: PASSWORD }
      }),
      201
    )
    expect(reply.message).toBe("Account created.")
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
    expect(bodyOf(reply)).toEqual({
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
    expect(errorBody(reply, 400).errors).toEqual([{ param: "password", msg: PASSWORD_RULE, location: "body" }])
  })

  it("accepts a password of exactly 8 characters", async () => {
    await okReply(
      typed.anonymous().identity.register({ payload: { fullName: "Ana", email: uniqueEmail(), password: "Abcdef12" } }),
      201
    )
  })

  it.each(["not-an-email", "ana@localhost", "ana souza@roda.test", "@roda.test", ""])(
    "refuses the e-mail %j: 400 naming email",
    async (email) => {
      const reply = await api.post("/api/auth/register", { fullName: "Ana", email, password: PASSWORD })
      expect(reply.status).toBe(400)
      expect(bodyOf(reply)).toEqual({
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
    expect(bodyOf(reply)).toEqual({
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
    expect(errorBody(missing, 400).errors).toEqual([
      { param: "password", msg: "password is required", location: "body" }
    ])

    const blank = await api.post("/api/auth/register", { fullName: "   ", email: uniqueEmail(), password: PASSWORD })
    expect(errorBody(blank, 400).errors).toEqual([{
      param: "fullName",
      msg: "must be between 1 and 200 characters",
      location: "body"
    }])
  })

  it("refuses an e-mail already registered, also in another case: 409", async () => {
    const user = await register(api)
    const registerAs = (email: string, language?: "en") =>
      typed.clientOf({ language }).identity.register({ payload: { fullName: "Other", email, password: PASSWORD } })
    const again = await failsReply(registerAs(user.email), 409)
    expect(again.body).toEqual({ success: false, code: "email_taken", message: "Este e-mail já está cadastrado." })

    const otherCase = await failsReply(registerAs(user.email.toUpperCase()), 409)
    expect(otherCase.body).toEqual({ success: false, code: "email_taken", message: "Este e-mail já está cadastrado." })

    const english = await failsReply(registerAs(user.email, "en"), 409)
    expect(english.body).toEqual({ success: false, code: "email_taken", message: "This e-mail is already registered." })
  })
})

describe("POST /api/auth/login", () => {
  it("answers exactly success, message, data.token and data.member {id, email, fullName}", async () => {
    const user = await register(api, "Bruno Lima")
    const { data: signedIn, reply } = await okReply(login(user.email, PASSWORD), 200)
    expect(reply.body).toEqual({
      success: true,
      message: "Login realizado com sucesso.",
      data: { token: expect.any(String), member: { id: user.id, email: user.email, fullName: "Bruno Lima" } }
    })
    const { data: owner } = await okReply(me(signedIn.data.token), 200)
    expect(owner.data.id).toBe(user.id)
  })

  it("finds the account whatever the case of the e-mail and surrounding spaces", async () => {
    const user = await register(api)
    const { data: reply } = await okReply(login(`  ${user.email.toUpperCase()}  `, PASSWORD), 200)
    expect(reply.data.member.id).toBe(user.id)
  })

  it("issues an HS256 JWT for the account, valid for exactly 7 days", async () => {
    const user = await register(api)
    const before = nowSeconds()
    const token = (await okReply(login(user.email, PASSWORD), 200)).data.data.token
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
    const wrongPassword = await failsReply(login(user.email, "Wrong1234"), 401)
    const unknownEmail = await failsReply(login(uniqueEmail("nobody"), PASSWORD), 401)
    expect(wrongPassword.body).toEqual(INVALID_CREDENTIALS)
    expect(unknownEmail.body).toEqual(INVALID_CREDENTIALS)
    expect(wrongPassword.reply.headers["retry-after"]).toBeUndefined()

    const english = await failsReply(signIn(roda, user.email, "Wrong1234", { language: "en" }), 401)
    expect(english.body).toEqual({
      success: false,
      code: "invalid_credentials",
      message: "Invalid e-mail or password."
    })
  })

  it("refuses a body without password: 400 (raw: the contract's type has the field)", async () => {
    const reply = await api.post("/api/auth/login", { email: uniqueEmail() })
    expect(errorBody(reply, 400).errors).toEqual([{ param: "password", msg: "password is required", location: "body" }])
  })

  it("allows 5 failures per account and address by default, then answers 429 with Retry-After", async () => {
    const user = await register(api)
    const address = uniqueAddress()
    for (let i = 0; i < 5; i++) await failsReply(login(user.email, "Wrong1234", address), 401)
    const blocked = await failsReply(login(user.email, PASSWORD, address), 429)
    expect(blocked.body).toEqual(TOO_MANY)
    const retryAfter = Number(blocked.reply.headers["retry-after"])
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
      expect(await statusOf(login(user.email, "Wrong1234", address, strict))).toBe(401)
      expect(await statusOf(login(user.email, "Wrong1234", address, strict))).toBe(401)

      const blocked = await failsReply(login(user.email, PASSWORD, address, strict), 429)
      expect(blocked.body).toEqual(TOO_MANY)
      const retryAfter = Number(blocked.reply.headers["retry-after"])
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(15 * 60)

      const english = await failsReply(
        signIn(strict, user.email, PASSWORD, { clientAddress: address, language: "en" }),
        429
      )
      expect(english.body).toEqual({
        success: false,
        code: "too_many_attempts",
        message: "Too many login attempts. Try again later."
      })
      // the holder, elsewhere, is not locked out (issue 10, item 5)
      expect(await statusOf(login(user.email, PASSWORD, uniqueAddress(), strict))).toBe(200)
    })

    it("does not block other accounts signing in from the same address", async () => {
      const address = uniqueAddress()
      const victim = await register(strictApi)
      const other = await register(strictApi)
      await statusOf(login(victim.email, "Wrong1234", address, strict))
      await statusOf(login(victim.email, "Wrong1234", address, strict))
      expect(await statusOf(login(victim.email, PASSWORD, address, strict))).toBe(429)
      expect(await statusOf(login(other.email, PASSWORD, address, strict))).toBe(200)
    })

    it("throttles an unknown e-mail exactly like a registered one", async () => {
      const email = uniqueEmail("nobody")
      const address = uniqueAddress()
      expect(await statusOf(login(email, "Wrong1234", address, strict))).toBe(401)
      expect(await statusOf(login(email, "Wrong1234", address, strict))).toBe(401)
      const blocked = await failsReply(login(email, "Wrong1234", address, strict), 429)
      expect(blocked.body).toEqual(TOO_MANY)
    })

    it("counts the e-mail whatever its case", async () => {
      const user = await register(strictApi)
      const address = uniqueAddress()
      await statusOf(login(user.email.toUpperCase(), "Wrong1234", address, strict))
      await statusOf(login(` ${user.email} `, "Wrong1234", address, strict))
      expect(await statusOf(login(user.email, PASSWORD, address, strict))).toBe(429)
    })

    it("starts counting again after a successful sign-in", async () => {
      const user = await register(strictApi)
      expect(await statusOf(login(user.email, "Wrong1234", uniqueAddress(), strict))).toBe(401)
      expect(await statusOf(login(user.email, PASSWORD, uniqueAddress(), strict))).toBe(200)
      expect(await statusOf(login(user.email, "Wrong1234", uniqueAddress(), strict))).toBe(401)
      expect(await statusOf(login(user.email, PASSWORD, uniqueAddress(), strict))).toBe(200)
    })

    it("lets the account in again once the window has passed", async () => {
      const user = await register(strictApi)
      const address = uniqueAddress()
      await statusOf(login(user.email, "Wrong1234", address, strict))
      await statusOf(login(user.email, "Wrong1234", address, strict))
      expect(await statusOf(login(user.email, PASSWORD, address, strict))).toBe(429)

      const moved = await query(
        strict,
        (sql) =>
          sql`UPDATE login_failures SET window_started_at = window_started_at - interval '16 minutes'
          WHERE key = ${`account-address:${user.email}|${address}`} RETURNING key`
      )
      expect(moved).toHaveLength(1)
      expect(await statusOf(login(user.email, PASSWORD, address, strict))).toBe(200)
    })
  })

  describe("throttling per client address", () => {
    const strict = startRoda({ loginAttemptsPerAddress: 3, loginAttemptsPerAccount: 100 })
    const strictApi = client(strict)
    afterAll(() => strict.dispose())

    it("blocks an address after 3 failures on any accounts, but not other addresses", async () => {
      const address = uniqueAddress()
      const user = await register(strictApi)
      for (let i = 0; i < 3; i++) await failsReply(login(uniqueEmail("probe"), "Wrong1234", address, strict), 401)
      const blocked = await failsReply(login(user.email, PASSWORD, address, strict), 429)
      expect(blocked.body).toEqual(TOO_MANY)
      expect(Number(blocked.reply.headers["retry-after"])).toBeGreaterThan(0)

      expect(await statusOf(login(user.email, PASSWORD, uniqueAddress(), strict))).toBe(200)
    })

    it("is not reset by a successful sign-in from that address", async () => {
      const address = uniqueAddress()
      const user = await register(strictApi)
      await statusOf(login(uniqueEmail("probe"), "Wrong1234", address, strict))
      await statusOf(login(uniqueEmail("probe"), "Wrong1234", address, strict))
      expect(await statusOf(login(user.email, PASSWORD, address, strict))).toBe(200)
      await statusOf(login(uniqueEmail("probe"), "Wrong1234", address, strict))
      expect(await statusOf(login(user.email, PASSWORD, address, strict))).toBe(429)
    })
  })

  it("allows 30 failures per address by default", async () => {
    const address = uniqueAddress()
    const user = await register(api)
    for (let i = 0; i < 30; i++) await failsReply(login(uniqueEmail("probe"), "Wrong1234", address), 401)
    const blocked = await failsReply(login(user.email, PASSWORD, address), 429)
    expect(blocked.body).toEqual(TOO_MANY)
  })
})

describe("GET /api/auth/me", () => {
  it("answers the owner of the token", async () => {
    const user = await registerUnverified(api, "Carla Dias")
    const { reply } = await okReply(me(user.token), 200)
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
      const anonymous = wireContract(operated).anonymous().identity
      const operator = await registerUnverified(operatorApi, "Op", operatorEmail.toUpperCase())
      // a listed e-mail counts once verified: its holder used a link sent to it
      const { data: before } = await okReply(meOf(operated, operator.token), 200)
      expect(before.data).toMatchObject({ emailVerified: false, isPlatformAdmin: false })
      await okReply(anonymous.recoveryPassword({ payload: { email: operatorEmail } }), 200)
      await waitForMail(operated, operatorEmail, "password-recovery")
      const link = await passwordLinkFor(operated, operatorEmail, "password-recovery")
      await okReply(anonymous.setPassword({ payload: { id: link.id, token: link.token, password: PASSWORD } }), 200)
      const { data: after } = await okReply(meOf(operated, operator.token), 200)
      expect(after.data).toMatchObject({ emailVerified: true, isPlatformAdmin: true })
    } finally {
      await operated.dispose()
    }
  })

  it("answers 401 `Authentication token is required` without a token", async () => {
    const { body } = await failsReply(typed.anonymous().identity.me(), 401)
    expect(body).toEqual(TOKEN_REQUIRED)
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
    await okReply(me(token), 200)
    // the same without the session (a token from before sessions) is refused
    const noSession = await signToken({
      sub: user.id,
      email: user.email,
      iat: nowSeconds() - 60,
      exp: nowSeconds() + 60
    })
    await failsReply(me(noSession), 401)
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

  it.each(refusals)(
    "answers 401 `Invalid or expired token` for %s (raw: a hand-made header)",
    async (_, authorization) => {
      const user = await register(api)
      const reply = await api.get("/api/auth/me", { headers: { authorization: await authorization(user) } })
      expect(errorBody(reply, 401)).toEqual(TOKEN_INVALID)
    }
  )
})

describe("PUT /api/auth/change-password", () => {
  const change = (token: string | undefined, payload: { currentPassword: string; newPassword: string }) =>
    typed.clientOf({ token }).identity.changePassword({ payload })

  it("needs a token", async () => {
    const { body } = await failsReply(change(undefined, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }), 401)
    expect(body).toEqual(TOKEN_REQUIRED)
  })

  it("refuses a wrong current password: 400 naming currentPassword", async () => {
    const user = await register(api)
    const { body } = await failsReply(
      change(user.token, { currentPassword: "Wrong1234", newPassword: NEW_PASSWORD }),
      400
    )
    expect(body).toEqual({
      success: false,
      code: "current_password_wrong",
      message: "A senha atual está incorreta.",
      errors: [{ param: "currentPassword", msg: "A senha atual está incorreta.", location: "body" }]
    })
    expect(await statusOf(login(user.email, PASSWORD))).toBe(200)
  })

  it("refuses a weak new password: 400 naming newPassword (raw: the contract's type is a strong password)", async () => {
    const user = await register(api)
    const reply = await api.put("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "weakpassword"
    }, { token: user.token })
    expect(errorBody(reply, 400)).toEqual({
      success: false,
      code: "invalid_input",
      message: PASSWORD_RULE,
      errors: [{ param: "newPassword", msg: PASSWORD_RULE, location: "body" }]
    })
    expect(await statusOf(login(user.email, PASSWORD))).toBe(200)
  })

  it("changes the password; tokens already issued stay valid", async () => {
    const user = await register(api)
    const { reply } = await okReply(change(user.token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }), 200)
    expect(reply.body).toEqual({ success: true, message: "Senha alterada com sucesso.", data: null })

    const { data: withNew } = await okReply(login(user.email, NEW_PASSWORD), 200)
    expect(withNew.data.member.id).toBe(user.id)

    const withOld = await failsReply(login(user.email, PASSWORD), 401)
    expect(withOld.body).toEqual(INVALID_CREDENTIALS)

    const { data: oldToken } = await okReply(me(user.token), 200)
    expect(oldToken.data.id).toBe(user.id)
  })
})

describe("POST /api/auth/recovery-password", () => {
  const recover = (email: string) => typed.anonymous().identity.recoveryPassword({ payload: { email } })

  it("answers the same for a registered and an unknown e-mail", async () => {
    const user = await register(api)
    const known = await okReply(recover(user.email), 200)
    const unknown = await okReply(recover(uniqueEmail("nobody")), 200)
    expect(known.reply.body).toEqual({
      success: true,
      message: "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
      data: null
    })
    expect(unknown.reply.status).toBe(known.reply.status)
    expect(unknown.reply.body).toEqual(known.reply.body)
  })

  it("writes a recovery e-mail with a single-use link valid for 1 hour, only for a registered e-mail", async () => {
    const user = await register(api)
    const unknownEmail = uniqueEmail("nobody")
    await okReply(recover(user.email.toUpperCase()), 200)
    await okReply(recover(unknownEmail), 200)

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

  it("refuses a malformed e-mail: 400 naming email (raw: the contract's type is an e-mail)", async () => {
    const reply = await api.post("/api/auth/recovery-password", { email: "not-an-email" })
    expect(errorBody(reply, 400).errors).toEqual([
      { param: "email", msg: "must be a valid e-mail address", location: "body" }
    ])
  })
})

describe("POST /api/auth/set-password", () => {
  const setPassword = (payload: { id: string; token: string; password: string }) =>
    typed.anonymous().identity.setPassword({ payload })
  /** Raw: for input the contract's types refuse before sending. */
  const setPasswordRaw = (body: unknown) => api.post("/api/auth/set-password", body)

  /** A registered account and the link of a recovery request. */
  const recovering = async () => {
    const user = await register(api)
    await okReply(typed.anonymous().identity.recoveryPassword({ payload: { email: user.email } }), 200)
    await waitForMail(roda, user.email, "password-recovery")
    return { user, link: await passwordLinkFor(roda, user.email, "password-recovery") }
  }

  it("sets the password from a recovery link; the link then answers 410", async () => {
    const { user, link } = await recovering()
    const { reply } = await okReply(setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD }), 200)
    expect(reply.body).toEqual({ success: true, message: "Senha definida com sucesso.", data: null })

    expect(await statusOf(login(user.email, NEW_PASSWORD))).toBe(200)
    expect(await statusOf(login(user.email, PASSWORD))).toBe(401)

    const reused = await failsReply(setPassword({ id: link.id, token: link.token, password: "Third789x" }), 410)
    expect(reused.body).toEqual(LINK_GONE)
    expect(await statusOf(login(user.email, NEW_PASSWORD))).toBe(200)
  })

  it("refuses a wrong token with 400 and leaves the link usable", async () => {
    const { user, link } = await recovering()
    const wrong = await failsReply(
      setPassword({
        id: link.id,
        token: `${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`,
        password: NEW_PASSWORD
      }),
      400
    )
    expect(wrong.body).toEqual({
      success: false,
      code: "link_invalid",
      message: "Link inválido.",
      errors: [{ param: "token", msg: "Link inválido.", location: "body" }]
    })
    expect(await statusOf(login(user.email, PASSWORD))).toBe(200)
    await okReply(setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD }), 200)
  })

  it("refuses the token of one account used with another id: 400", async () => {
    const { link } = await recovering()
    const other = await register(api)
    await failsReply(setPassword({ id: other.id, token: link.token, password: NEW_PASSWORD }), 400)
    await failsReply(
      setPassword({ id: randomUUID(), token: link.token, password: NEW_PASSWORD }),
      400,
      "Link inválido."
    )
  })

  it("answers 410 for an expired link", async () => {
    const { user, link } = await recovering()
    const expired = await expireLinks(roda, user.id)
    expect(expired).toHaveLength(1)
    const { body } = await failsReply(setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD }), 410)
    expect(body).toEqual(LINK_GONE)
    expect(await statusOf(login(user.email, PASSWORD))).toBe(200)
  })

  it("closes the account's other open links when one is used", async () => {
    const { user, link: first } = await recovering()
    await okReply(typed.anonymous().identity.recoveryPassword({ payload: { email: user.email } }), 200)
    await waitForMail(roda, user.email, "password-recovery", 2)
    const second = await passwordLinkFor(roda, user.email, "password-recovery")
    expect(second.token).not.toBe(first.token)

    await okReply(setPassword({ id: second.id, token: second.token, password: NEW_PASSWORD }), 200)
    await failsReply(setPassword({ id: first.id, token: first.token, password: "Third789x" }), 410)
    expect(await statusOf(login(user.email, NEW_PASSWORD))).toBe(200)
  })

  it("refuses a weak password: 400 naming password, and leaves the link usable (raw: the type is a strong password)", async () => {
    const { link } = await recovering()
    const reply = await setPasswordRaw({ id: link.id, token: link.token, password: "password" })
    expect(errorBody(reply, 400).errors).toEqual([{ param: "password", msg: PASSWORD_RULE, location: "body" }])
    await okReply(setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD }), 200)
  })

  it("refuses a malformed id: 400 naming id (raw)", async () => {
    const reply = await setPasswordRaw({ id: "not-a-uuid", token: "whatever", password: NEW_PASSWORD })
    expect(errorBody(reply, 400)).toEqual({
      success: false,
      code: "invalid_input",
      message: "must be a valid UUID",
      errors: [{ param: "id", msg: "must be a valid UUID", location: "body" }]
    })
  })

  it("refuses an empty token and missing fields: 400 (raw)", async () => {
    const empty = errorBody(await setPasswordRaw({ id: randomUUID(), token: "", password: NEW_PASSWORD }), 400)
    expect(empty.errors).toHaveLength(1)
    expect(empty.errors?.[0]).toMatchObject({ param: "token", location: "body" })

    const missing = errorBody(await setPasswordRaw({}), 400)
    expect(missing.errors?.map((e) => e.param)).toEqual(["id", "token", "password"])
  })

  it("completes an invitation: the invited account sets its password and signs in", async () => {
    const { owner, community } = await makeCommunity(api)
    const email = uniqueEmail("invited")
    const { data: invited } = await okReply(
      typed.as(owner, community).profiles.invite({ payload: { email, fullName: "Dora Invited" } }),
      201
    )

    const link = await passwordLinkFor(roda, email, "invite")
    expect(link.id).toBe(invited.data.accountId)
    const [stored] = await query<{ lifetime: number }>(
      roda,
      (sql) =>
        sql`SELECT extract(epoch FROM expires_at - created_at)::float8 AS lifetime FROM password_links
        WHERE account_id = ${link.id} AND purpose = 'invite'`
    )
    expect(stored?.lifetime).toBeGreaterThan(SEVEN_DAYS - 60)
    expect(stored?.lifetime).toBeLessThan(SEVEN_DAYS + 60)

    expect(await statusOf(login(email, NEW_PASSWORD))).toBe(401)
    await okReply(setPassword({ id: link.id, token: link.token, password: NEW_PASSWORD }), 200)
    const { data: signedIn } = await okReply(login(email, NEW_PASSWORD), 200)
    expect(signedIn.data.member).toEqual({ id: link.id, email, fullName: "Dora Invited" })
  })
})
