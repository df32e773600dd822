import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectCreated } from "./support/envelope"
import { client, PASSWORD, startRoda, uniqueEmail } from "./support/harness"
import { query } from "./support/sql"

/** `Idempotency-Key` on creating POSTs (issue 10, item 10): one write per key, the first answer replayed. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let home: TestCommunity
beforeAll(async () => {
  home = await newCommunity(api, "Idempotencia")
})

const withKey = (key: string, user = home.owner) => ({
  ...as(user, home.community),
  headers: { "idempotency-key": key }
})

const sectionsTitled = async (title: string) =>
  Number(
    (await query<{ count: number }>(roda, (sql) =>
      sql`SELECT count(*)::int AS count FROM sections WHERE community_id = ${home.community.id} AND title = ${title}`))[
        0
      ]
      ?.count
  )

const KEY_REUSED = {
  success: false,
  code: "idempotency_key_reused",
  message: "Idempotency-Key was already used with another request",
  errors: [{
    param: "Idempotency-Key",
    msg: "Idempotency-Key was already used with another request",
    location: "headers"
  }]
}

describe("Idempotency-Key", () => {
  it("replays the first answer to a retry with the same key: same id, one row", async () => {
    const key = randomUUID()
    const title = `Retry ${key.slice(0, 8)}`
    const first = await api.post("/api/sections", { title }, withKey(key))
    const created = expectCreated(first)
    expect(first.headers.get("idempotent-replayed")).toBeNull()

    const retry = await api.post("/api/sections", { title }, withKey(key))
    expect(retry.status).toBe(201)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.body).toEqual(first.body)
    expect(retry.body.data.id).toBe(created.id)
    expect(await sectionsTitled(title)).toBe(1)
  })

  it("performs one write for parallel requests with one key", async () => {
    const key = randomUUID()
    const title = `Parallel ${key.slice(0, 8)}`
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => api.post("/api/sections", { title }, withKey(key)))
    )
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(new Set(replies.map((reply) => reply.body.data.id)).size).toBe(1)
    expect(replies.filter((reply) => reply.headers.get("idempotent-replayed") === "true")).toHaveLength(7)
    expect(await sectionsTitled(title)).toBe(1)
  })

  it("answers 409 naming the header when the key comes again with another request", async () => {
    const key = randomUUID()
    expectCreated(await api.post("/api/sections", { title: `First ${key.slice(0, 8)}` }, withKey(key)))
    const other = await api.post("/api/sections", { title: `Second ${key.slice(0, 8)}` }, withKey(key))
    expect(other.status).toBe(409)
    expect(other.body).toEqual(KEY_REUSED)
    expect(await sectionsTitled(`Second ${key.slice(0, 8)}`)).toBe(0)
    // Another route with the same key is another request too.
    const elsewhere = await api.post("/api/status", { body: "olá" }, withKey(key))
    expect(elsewhere.status).toBe(409)
  })

  it("is scoped to the caller: another account's key of the same name is its own", async () => {
    const admin = await home.addMember("admin")
    const key = randomUUID()
    const title = `Scoped ${key.slice(0, 8)}`
    const mine = expectCreated(await api.post("/api/sections", { title }, withKey(key)))
    const theirs = await api.post("/api/sections", { title }, withKey(key, admin))
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(theirs.body.data.id).not.toBe(mine.id)
    expect(await sectionsTitled(title)).toBe(2)
  })

  it("does not store an answer that is not 2xx: the key may be used again", async () => {
    const key = randomUUID()
    const refused = await api.post("/api/sections", { title: "" }, withKey(key))
    expect(refused.status).toBe(400)
    const title = `After 400 ${key.slice(0, 8)}`
    const created = await api.post("/api/sections", { title }, withKey(key))
    expect(created.status).toBe(201)
    expect(created.headers.get("idempotent-replayed")).toBeNull()
    expect(await sectionsTitled(title)).toBe(1)
  })

  it("refuses a malformed key with 400 naming the header", async () => {
    for (const key of ["x".repeat(256), "has space", "acentuação"]) {
      const reply = await api.post("/api/sections", { title: "Bad key" }, withKey(key))
      expect(reply.status).toBe(400)
      expect(reply.body.errors).toEqual([{
        param: "Idempotency-Key",
        msg: "Idempotency-Key must be 1 to 255 visible ASCII characters",
        location: "headers"
      }])
    }
    expect(await sectionsTitled("Bad key")).toBe(0)
  })

  it("works for anonymous creation: a retried sign-up makes one account", async () => {
    const key = randomUUID()
    const email = uniqueEmail("idem")
    const body = { fullName: "Ida Idempotente", email, password: PASSWORD }
    const first = await api.post("/api/auth/register", body, { headers: { "idempotency-key": key } })
    expect(first.status).toBe(201)
    const retry = await api.post("/api/auth/register", body, { headers: { "idempotency-key": key } })
    expect(retry.status).toBe(201)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.body.data.id).toBe(first.body.data.id)
    const accounts = await query<{ count: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS count FROM accounts WHERE email = ${email}`
    )
    expect(accounts[0]?.count).toBe(1)
  })

  it("sweeps expired keys within the claiming statement, 100 at a time, once every 100 claims", async () => {
    await query(roda, (sql) =>
      sql`INSERT INTO request_idempotency_keys (scope, caller, key, fingerprint, expires_at)
        SELECT 'sweep-test', 'anonymous', 'old-' || n, 'f', now() - interval '1 hour'
        FROM generate_series(1, 120) AS n`)
    // 100 claims (refused requests claim too) include exactly one that sweeps.
    for (let i = 0; i < 100; i++) {
      expect((await api.post("/api/sections", { title: "" }, withKey(randomUUID()))).status).toBe(400)
    }
    const left = await query<{ count: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS count FROM request_idempotency_keys WHERE scope = 'sweep-test'`
    )
    expect(left[0]?.count).toBe(20)
  })
})
