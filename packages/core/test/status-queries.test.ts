import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "./social/setup"
import { as, NOT_MEMBER } from "./support/community"
import { expectError, expectOk } from "./support/envelope"
import { client, PASSWORD, register, startRoda } from "./support/harness"
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

const statusCount = () =>
  roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM status_posts`)
  ).then((rows) => rows[0]!.n)

/**
 * Before issue 11 `POST /api/status` took 11 statements (account, membership, insert, mentions
 * delete and insert, the post read back, reactions, the caller's reaction, comments, mentions), in
 * the request's transaction with a savepoint inside. Now the caller's membership is read in the
 * post's insert (`DeferredMemberScope`): one statement, which also writes its `post.created` webhook
 * event (issue 54); with mentions, those, the mentioned members' notifications (issue 55: one
 * statement, in the post's transaction, so a post that rolls back notifies nobody) and then the event,
 * in a transaction; a transaction too for an `Idempotency-Key`. A post without mentions notifies nobody.
 */
describe("POST /api/status statements", () => {
  it("creates a post without mentions in 1 statement and no transaction (1 round trip)", async () => {
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
    expect(n).toBe(1)
    expect(transactions).toBe(0)
    // That one statement also wrote the post's webhook event.
    const events = await roda.runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events
        WHERE type = 'post.created' AND data->>'id' = ${post.id}`)
    )
    expect(events[0]!.n).toBe(1)
    const listed = expectOk(await api.get("/api/status?limit=1", as(setup.alice, setup.community)))
    expect(listed[0]).toEqual(post)
  })

  it("with an Idempotency-Key, runs in the request's transaction, with no savepoint inside", async () => {
    const key = { ...as(setup.alice, setup.community), headers: { "idempotency-key": "status-queries-1" } }
    const { n, result, transactions } = await statements(() => api.post("/api/status", { body: "Com chave" }, key))
    expectOk(result, 201)
    // The key's claim, the post with its caller, the stored answer.
    expect([n, transactions]).toEqual([3, 1])
    const again = await statements(() => api.post("/api/status", { body: "Com chave" }, key))
    expect(again.result.headers.get("idempotent-replayed")).toBe("true")
    expect(expectOk(again.result, 201)).toEqual(expectOk(result, 201))
  })

  it("creates a post with mentions in 4 statements (post, mentions, notifications with the streams' wake-up, its post.created event), answering what a read would", async () => {
    const body = `Oi @[Bruno](${setup.bruno.profileId}) e @${setup.alice.profileId}`
    const { n, result, transactions } = await statements(() =>
      api.post("/api/status", { body }, as(setup.alice, setup.community))
    )
    const post = expectOk(result, 201)
    // On PostgreSQL the open notification streams are woken by a `pg_notify` in the notifications' statement.
    expect([n, transactions]).toEqual([4, 1])
    const listed = expectOk(await api.get("/api/status?limit=1", as(setup.alice, setup.community)))
    expect(listed[0]).toEqual(post)
    expect(post.mentions.map((m: { profileId: string }) => m.profileId).sort()).toEqual(
      [setup.alice.profileId, setup.bruno.profileId].sort()
    )
    // Bruno is told; Alice, who wrote it, is not.
    const inbox = (user: { token: string }) => api.get("/api/notifications?limit=1", as(user, setup.community))
    expect(expectOk(await inbox(setup.bruno))[0]).toMatchObject({ kind: "mention", subject: { id: post.id } })
    expect(expectOk(await inbox(setup.alice))).toEqual([])
  })

  it("staff acting as a profile (X-ProfileId): the caller and that profile read first, then the post (3 statements)", async () => {
    const { n, result } = await statements(() =>
      api.post("/api/status", { body: "Em nome de Bruno" }, {
        ...as(setup.owner, setup.community),
        profile: setup.bruno.profileId
      })
    )
    expect(expectOk(result, 201).author.id).toBe(setup.bruno.profileId)
    expect(n).toBe(3)
  })

  it("refuses a non-member in 1 statement (the insert, which writes nothing)", async () => {
    const stranger = await register(api, "Sara Stranger")
    const before = await statusCount()
    const { n, result } = await statements(() => api.post("/api/status", { body: "x" }, as(stranger, setup.community)))
    expectError(result, 403, NOT_MEMBER)
    expect(n).toBe(1)
    const mentioning = await api.post(
      "/api/status",
      { body: `@${setup.bruno.profileId}` },
      as(stranger, setup.community)
    )
    expectError(mentioning, 403, NOT_MEMBER)
    expect(await statusCount()).toBe(before)
  })
})

/**
 * The membership is read after the input on this route, yet the answers keep MemberScope's order:
 * token (401), community header (400), account gone (401), no member (403), then the input (400).
 */
describe("POST /api/status: the order of answers with the membership in the insert", () => {
  it("a non-member with an invalid body, or a body naming another community, gets 403", async () => {
    const stranger = await register(api, "Nico Nonmember")
    const auth = as(stranger, setup.community)
    expectError(await api.post("/api/status", {}, auth), 403, NOT_MEMBER)
    expectError(await api.post("/api/status", { body: "   " }, auth), 403, NOT_MEMBER)
    expectError(await api.post("/api/status", { body: "x".repeat(5001) }, auth), 403, NOT_MEMBER)
    expectError(await api.post("/api/status", { body: "x", communityId: crypto.randomUUID() }, auth), 403, NOT_MEMBER)
  })

  it("a member gets the 400 of the input, the membership read once for it", async () => {
    const auth = as(setup.alice, setup.community)
    const { n, result } = await statements(() => api.post("/api/status", { body: "   " }, auth))
    expectError(result, 400)
    expect(result.body.errors[0].param).toBe("body")
    expect(n).toBe(1)
    const mismatch = await api.post("/api/status", { body: "x", communityId: crypto.randomUUID() }, auth)
    expectError(mismatch, 400)
    expect(mismatch.body.errors[0].param).toBe("communityId")
  })

  it("an invitation not accepted, a removed member and another community's member are no members", async () => {
    const invitee = await register(api, "Ivo Invited")
    const invited = expectOk(
      await api.post(
        "/api/profiles/invite",
        { email: invitee.email, role: "member" },
        as(setup.owner, setup.community)
      ),
      201
    )
    expect(invited.status).toBe("invited")
    expectError(await api.post("/api/status", { body: "x" }, as(invitee, setup.community)), 403, NOT_MEMBER)
    const leaving = await setup.addMember("member", "Rui Removed")
    expectOk(await api.post("/api/status", { body: "antes" }, as(leaving, setup.community)), 201)
    expectOk(await api.del(`/api/profiles/${leaving.profileId}`, as(setup.owner, setup.community)))
    expectError(await api.post("/api/status", { body: "depois" }, as(leaving, setup.community)), 403, NOT_MEMBER)
    const elsewhere = await socialCommunity(api, "Outra comunidade")
    expectError(await api.post("/api/status", { body: "x" }, as(elsewhere.alice, setup.community)), 403, NOT_MEMBER)
  })

  it("a deleted account gets 401 whatever its body", async () => {
    const gone = await register(api, "Gina Gone")
    await deleteAccount(gone.id)
    const auth = as(gone, setup.community)
    expectError(await api.post("/api/status", { body: "x" }, auth), 401, "Invalid or expired token")
    expectError(await api.post("/api/status", {}, auth), 401, "Invalid or expired token")
    expectError(
      await api.post("/api/status", { body: "x", communityId: crypto.randomUUID() }, auth),
      401,
      "Invalid or expired token"
    )
  })
})

describe("GET /api/auth/me statements", () => {
  it("answers in 1 statement", async () => {
    const { n, result } = await statements(() => api.get("/api/auth/me", { token: setup.alice.token }))
    expect(expectOk(result)).toMatchObject({ id: setup.alice.id, isPlatformAdmin: false, emailVerified: true })
    expect(n).toBe(1)
  })
})

/**
 * Issue 52: the token's session is checked in the statement that reads the caller, on every kind of
 * route; an ended session costs no more statements than a live one.
 */
describe("an ended session", () => {
  it("is refused with 401 in the caller's own statement: account, member, deferred and public routes", async () => {
    const login = await api.post("/api/auth/login", { email: setup.alice.email, password: PASSWORD })
    const token = expectOk(login).token as string
    const auth = as({ token }, setup.community)
    const live = {
      me: await statements(() => api.get("/api/auth/me", { token })),
      member: await statements(() => api.get("/api/profiles/list", auth)),
      deferred: await statements(() => api.post("/api/status", { body: "Sessão viva" }, auth)),
      public: await statements(() => api.get("/api/sections", auth))
    }
    expectOk(live.deferred.result, 201)
    expect(live.me.n).toBe(1)
    expect(live.deferred.n).toBe(1)
    expectOk(await api.post("/api/auth/logout", undefined, { token }))
    const ended = {
      me: await statements(() => api.get("/api/auth/me", { token })),
      member: await statements(() => api.get("/api/profiles/list", auth)),
      deferred: await statements(() => api.post("/api/status", { body: "Sessão encerrada" }, auth)),
      public: await statements(() => api.get("/api/sections", auth))
    }
    for (const [route, counted] of Object.entries(ended)) {
      expectError(counted.result, 401, "Invalid or expired token")
      expect(counted.n, route).toBeLessThanOrEqual(live[route as keyof typeof live].n)
      expect(counted.n, route).toBe(1)
    }
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
