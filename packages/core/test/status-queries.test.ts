import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "./social/setup"
import { as, NOT_MEMBER } from "./support/community"
import { expectError, expectOk } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"
import { statements } from "./support/queries"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

const deleteAccount = (id: string) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM accounts WHERE id = ${id}`))

let setup: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Consultas de status")
})

/**
 * Before issue 11 `POST /api/status` took 11 statements (account, membership, insert, mentions
 * delete and insert, the post read back, reactions, the caller's reaction, comments, mentions), in
 * the request's transaction with a savepoint inside. Now: the caller with their membership, the post
 * (answered by its insert), its mentions (when any); a transaction only for the post with its
 * mentions, or for an `Idempotency-Key`.
 */
describe("POST /api/status statements", () => {
  it("creates a post without mentions in 2 statements and no transaction (2 round trips)", async () => {
    const { n, result, transactions } = await statements(() =>
      api.post("/api/status", { body: "Sem menções" }, as(setup.alice, setup.community))
    )
    const post = expectOk(result, 201)
    expect(post).toMatchObject({
      body: "Sem menções",
      author: { id: setup.alice.profileId, fullName: "Alice Alves", avatarUrl: null },
      reactions: { like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 },
      reactionCount: 0,
      commentCount: 0,
      myReaction: null,
      mentions: []
    })
    expect(n).toBe(2)
    expect(transactions).toBe(0)
  })

  it("with an Idempotency-Key, runs in the request's transaction, with no savepoint inside", async () => {
    const key = { ...as(setup.alice, setup.community), headers: { "idempotency-key": "status-queries-1" } }
    const { n, result, transactions } = await statements(() => api.post("/api/status", { body: "Com chave" }, key))
    expectOk(result, 201)
    // The caller, the key's claim, the post, the stored answer.
    expect([n, transactions]).toEqual([4, 1])
    const again = await statements(() => api.post("/api/status", { body: "Com chave" }, key))
    expect(again.result.headers.get("idempotent-replayed")).toBe("true")
    expect(expectOk(again.result, 201)).toEqual(expectOk(result, 201))
  })

  it("creates a post with mentions in 3 statements, answering what a read would", async () => {
    const body = `Oi @[Bruno](${setup.bruno.profileId}) e @${setup.alice.profileId}`
    const { n, result, transactions } = await statements(() =>
      api.post("/api/status", { body }, as(setup.alice, setup.community))
    )
    const post = expectOk(result, 201)
    expect([n, transactions]).toEqual([3, 1])
    const listed = expectOk(await api.get("/api/status?limit=1", as(setup.alice, setup.community)))
    expect(listed[0]).toEqual(post)
    expect(post.mentions.map((m: { profileId: string }) => m.profileId).sort()).toEqual(
      [setup.alice.profileId, setup.bruno.profileId].sort()
    )
  })

  it("refuses a non-member in 1 statement (the caller read)", async () => {
    const stranger = await register(api, "Sara Stranger")
    const { n, result } = await statements(() => api.post("/api/status", { body: "x" }, as(stranger, setup.community)))
    expectError(result, 403, NOT_MEMBER)
    expect(n).toBe(1)
  })
})

describe("GET /api/auth/me statements", () => {
  it("answers in 1 statement", async () => {
    const { n, result } = await statements(() => api.get("/api/auth/me", { token: setup.alice.token }))
    expect(expectOk(result)).toMatchObject({ id: setup.alice.id, isPlatformAdmin: false, emailVerified: false })
    expect(n).toBe(1)
  })
})

describe("the token of a deleted account", () => {
  it("is refused with 401 on scoped, public and account routes, even with a wrong community header", async () => {
    const gone = await register(api, "Gil Gone")
    await deleteAccount(gone.id)
    expectError(await api.get("/api/auth/me", { token: gone.token }), 401, "Invalid or expired token")
    expectError(
      await api.post("/api/status", { body: "x" }, as(gone, setup.community)),
      401,
      "Invalid or expired token"
    )
    expectError(await api.get("/api/status", as(gone, setup.community)), 401, "Invalid or expired token")
    expectError(
      await api.post("/api/status", { body: "x" }, { token: gone.token, community: "nope" }),
      401,
      "Invalid or expired token"
    )
  })
})
