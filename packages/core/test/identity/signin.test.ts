import { afterAll, describe, expect, it } from "vitest"
import { identityMessages } from "../../src/identity/messages"
import { uniqueAddress } from "../support/auth"
import { failsReply, okReply, statusOf, wireContract, type WireReply } from "../support/contractReplies"
import { client, PASSWORD, register, startRoda, uniqueEmail } from "../support/harness"
import { outboxFor, waitForMail } from "../support/outbox"
import { query } from "../support/sql"
import { signIn } from "./support"

/** Issue 10, items 5 and 11: sign-in throttling under concurrency, e-mail normalization, recovery. */
const roda = startRoda()
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

const login = (email: string, password: string, clientAddress: string) =>
  signIn(roda, email, password, { clientAddress })
const recover = (email: string) => typed.anonymous().identity.recoveryPassword({ payload: { email } })

describe("sign-in throttling", () => {
  it("checks at most 5 of 20 parallel wrong guesses; the right password is then refused from that address", async () => {
    const user = await register(api)
    const address = uniqueAddress()
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => statusOf(login(user.email, `Wrong${i}pass`, address)))
    )
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15)
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true)
    const locked = await failsReply(login(user.email, PASSWORD, address), 429, identityMessages.tooManyAttempts.pt)
    expect(Number(locked.reply.headers["retry-after"])).toBeGreaterThan(0)
  })

  it("5 wrong guesses from one address do not lock the holder out from another", async () => {
    const user = await register(api)
    const attacker = uniqueAddress()
    for (let i = 0; i < 5; i++) await failsReply(login(user.email, "Wrong1234", attacker), 401)
    await failsReply(login(user.email, PASSWORD, attacker), 429)
    await okReply(login(user.email, PASSWORD, uniqueAddress()), 200)
  })

  it("keeps a much higher limit per account over every address (loginAttemptsPerAccountGlobal)", async () => {
    const strict = startRoda({ loginAttemptsPerAccountGlobal: 3 })
    try {
      const other = client(strict)
      const user = await register(other)
      for (let i = 0; i < 3; i++) await failsReply(signIn(strict, user.email, "Wrong1234"), 401)
      await failsReply(signIn(strict, user.email, PASSWORD), 429)
    } finally {
      await strict.dispose()
    }
  })

  it("a successful sign-in clears its own account+address count", async () => {
    const user = await register(api)
    const address = uniqueAddress()
    for (let i = 0; i < 4; i++) await failsReply(login(user.email, "Wrong1234", address), 401)
    await okReply(login(user.email, PASSWORD, address), 200)
    for (let i = 0; i < 4; i++) await failsReply(login(user.email, "Wrong1234", address), 401)
    await okReply(login(user.email, PASSWORD, address), 200)
  })
})

describe("e-mail normalization (NFC)", () => {
  it("treats a decomposed and a precomposed accent as the same address", async () => {
    const tag = uniqueEmail("x").split("@")[0]!
    const decomposed = `ana\u0301-${tag}@x.com`
    const precomposed = `an\u00e1-${tag}@x.com`
    expect(decomposed).not.toBe(precomposed)
    const registerAs = (fullName: string, email: string) =>
      typed.anonymous().identity.register({ payload: { fullName, email, password: PASSWORD } })
    const { data: first } = await okReply(registerAs("Aná", decomposed), 201)
    expect(first.data.email).toBe(precomposed)
    await failsReply(registerAs("Outra Aná", precomposed), 409, identityMessages.emailTaken.pt)
    await okReply(login(precomposed, PASSWORD, uniqueAddress()), 200)
    await okReply(login(decomposed.toUpperCase(), PASSWORD, uniqueAddress()), 200)
  })
})

describe("password recovery", () => {
  it("answers an unknown and a registered e-mail identically, and still e-mails the registered one", async () => {
    const user = await register(api)
    const unknown = uniqueEmail("nobody")
    const strip = (reply: WireReply) => ({
      status: reply.status,
      body: reply.body,
      type: reply.headers["content-type"]
    })
    const known = (await okReply(recover(user.email), 200)).reply
    const stranger = (await okReply(recover(unknown), 200)).reply
    expect(strip(known)).toEqual(strip(stranger))
    expect(known.status).toBe(200)
    const mails = await waitForMail(roda, user.email, "password-recovery")
    expect(mails.map((m) => m.kind)).toEqual(["password-recovery"])
    expect(await outboxFor(roda, unknown)).toEqual([])
  })

  it("answers before the e-mail work: a failing e-mail changes neither the answer nor its status", async () => {
    const user = await register(api)
    const unknown = (await okReply(recover(uniqueEmail("nobody")), 200)).reply
    // The outbox refuses this one recipient (a trigger; the file's other tests are untouched).
    const name = `refuse_${user.id.replace(/-/g, "")}`
    await query(roda, (sql) =>
      sql.unsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF lower(NEW.recipient) = '${user.email}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`))
    await query(
      roda,
      (sql) => sql.unsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION ${name}()`)
    )
    try {
      const known = (await okReply(recover(user.email), 200)).reply
      expect({ status: known.status, body: known.body }).toEqual({ status: unknown.status, body: unknown.body })
      expect(known.status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 300))
    } finally {
      await query(roda, (sql) => sql.unsafe(`DROP TRIGGER ${name} ON outbox`))
      await query(roda, (sql) => sql.unsafe(`DROP FUNCTION ${name}()`))
    }
    expect((await outboxFor(roda, user.email)).filter((mail) => mail.kind === "password-recovery")).toEqual([])
  })
})
