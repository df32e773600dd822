import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, held content: the community's `moderation.blockedWords` and `holdFirstPosts` hold a
 * member's post or comment for approval (201, `pending: true`: its author and staff read it; out of
 * the feed, lists and notifications), and the staff's queue approves (then its notifications and
 * webhook events) or rejects it. Blocked words' matching: blocked-words.test.ts.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NOT_FOUND = "Conteúdo aguardando aprovação não encontrado."
const STAFF = ["owner", "admin", "moderator"]

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<ReadonlyArray<A>>)
const events = (type: string, id: string) =>
  query<{ n: number }>((sql) =>
    sql`SELECT count(*)::int AS n FROM webhook_events WHERE type = ${type} AND data->>'id' = ${id}`
  ).then((rows) => rows[0]!.n)

let m: ModerationCommunity
let other: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Pendentes")
  other = await moderationCommunity(api, "Outra pendentes")
  expectOk(await settings(m, { blockedWords: ["Golpe", "pirâmide"] }))
  expectOk(await settings(other, { blockedWords: ["golpe"] }))
})

const settings = (c: ModerationCommunity, moderation: Record<string, unknown>) =>
  api.patch(`/api/communities/${c.community.id}/settings`, { moderation }, c.in(c.owner))
const postStatus = (user: { token: string }, body: string, c = m) => api.post("/api/status", { body }, c.in(user))
const queue = async (user: { token: string } = m.moderator, params = "") =>
  expectOk(await api.get(`/api/moderation/pending${params}`, m.in(user)), 200, "Conteúdo aguardando aprovação.")
const decide = (action: "approve" | "reject", id: string, user: { token: string } = m.moderator, c = m) =>
  api.post(`/api/moderation/pending/${id}/${action}`, undefined, c.in(user))
const statusIds = async (user: { token: string }) =>
  (expectOk(await api.get("/api/status?limit=100", m.in(user))) as Array<{ id: string }>).map((p) => p.id)
const feedIds = async (user: { token: string }) =>
  (expectOk(await api.get("/api/feed?limit=100", m.in(user))) as Array<{ id: string }>).map((p) => p.id)
const inbox = async (user: { token: string }) =>
  expectOk(await api.get("/api/notifications?limit=100", m.in(user))) as Array<{ kind: string; subject: any }>

describe("a status post with a blocked word", () => {
  it("is written pending: 201 marked pending, read by its author and staff only, no event or notification", async () => {
    const body = `Entrem no GOLPE, @[Bruno](${m.bruno.profileId})`
    const post = expectOk(await postStatus(m.alice, body), 201)
    expect(post).toMatchObject({ body, pending: true, hidden: false, mentions: [{ profileId: m.bruno.profileId }] })
    expect(await statusIds(m.alice)).toContain(post.id)
    expect(await statusIds(m.moderator)).toContain(post.id)
    expect(await statusIds(m.bruno)).not.toContain(post.id)
    expect(await feedIds(m.bruno)).not.toContain(post.id)
    expect((await inbox(m.bruno)).some((n) => n.subject.id === post.id)).toBe(false)
    expect(await events("post.created", post.id)).toBe(0)
    expectError(await api.get(`/api/status/${post.id}/comments`, m.in(m.bruno)), 404)
  })

  it("is not held for staff, nor for a word that only contains a blocked one", async () => {
    for (const user of [m.owner, m.admin, m.moderator]) {
      expect(expectOk(await postStatus(user, "Cuidado com o golpe"), 201).pending).toBe(false)
    }
    expect(expectOk(await postStatus(m.alice, "Golpeado não é bloqueado"), 201).pending).toBe(false)
  })

  it("on approval is visible, and its mentions, webhook event and log are written then", async () => {
    const post = expectOk(await postStatus(m.alice, `Pirâmide de @[Carla](${m.carla.profileId})`), 201)
    expect(post.pending).toBe(true)
    const listed = await queue()
    expect(listed.find((item: any) => item.id === post.id)).toEqual({
      id: post.id,
      type: "status",
      author: { id: m.alice.profileId, fullName: "Alice Alves" },
      excerpt: `Pirâmide de @[Carla](${m.carla.profileId})`,
      edited: false,
      itemType: null,
      itemId: null,
      spaceId: null,
      createdAt: post.createdAt
    })
    const approved = expectOk(await decide("approve", post.id), 200, "Conteúdo aprovado.")
    expect(approved).toMatchObject({ id: post.id, type: "status", status: "approved" })
    expect(await statusIds(m.bruno)).toContain(post.id)
    expect(await feedIds(m.bruno)).toContain(post.id)
    const seen = (expectOk(await api.get("/api/status?limit=100", m.in(m.bruno))) as Array<any>)
      .find((p) => p.id === post.id)
    expect(seen).toMatchObject({ pending: false, hidden: false })
    expect((await inbox(m.carla)).filter((n) => n.subject.id === post.id).map((n) => n.kind)).toEqual(["mention"])
    expect(await events("post.created", post.id)).toBe(1)
    expect((await queue()).some((item: any) => item.id === post.id)).toBe(false)
    const log = expectOk(await api.get("/api/moderation/log?limit=5", m.in(m.owner))) as Array<any>
    expect(log.find((entry) => entry.subject.id === post.id)).toMatchObject({
      action: "approve",
      actor: { id: m.moderator.profileId, fullName: "Maria Moderadora" },
      subject: { type: "status", id: post.id, excerpt: `Pirâmide de @[Carla](${m.carla.profileId})` },
      caseId: null
    })
    expectError(await decide("approve", post.id), 404, NOT_FOUND)
  })

  it("on rejection is removed for everyone, its author too, and logged", async () => {
    const post = expectOk(await postStatus(m.alice, "Outro golpe"), 201)
    const rejected = expectOk(await decide("reject", post.id, m.admin), 200, "Conteúdo rejeitado.")
    expect(rejected).toMatchObject({ id: post.id, status: "rejected" })
    expect(await statusIds(m.alice)).not.toContain(post.id)
    expect(await statusIds(m.owner)).not.toContain(post.id)
    expect(await events("post.created", post.id)).toBe(0)
    expectError(await decide("approve", post.id), 404, NOT_FOUND)
    const log = expectOk(await api.get("/api/moderation/log?limit=5", m.in(m.owner))) as Array<any>
    expect(log.find((entry) => entry.subject.id === post.id)).toMatchObject({
      action: "reject",
      subject: { excerpt: "Outro golpe" }
    })
  })
})

describe("editing a held status post", () => {
  it("keeps it pending and notifies its new mentions only on approval", async () => {
    const post = expectOk(await postStatus(m.alice, "Golpe sem menção"), 201)
    const body = `Golpe com @[Carla](${m.carla.profileId}) e @[Bruno](${m.bruno.profileId})`
    const edited = expectOk(await api.put(`/api/status/${post.id}`, { body }, m.in(m.alice)))
    expect(edited).toMatchObject({ pending: true, body })
    expect((await inbox(m.bruno)).some((n) => n.subject.id === post.id)).toBe(false)
    expectOk(await decide("approve", post.id))
    expect((await inbox(m.bruno)).filter((n) => n.subject.id === post.id).map((n) => n.kind)).toEqual(["mention"])
  })
})

describe("a content post with a blocked word", () => {
  it("is held (title or body); approval notifies the space's followers and writes its event", async () => {
    const reply = await api.post("/api/content", {
      spaceId: m.feedSpace.id,
      title: "Renda fácil: pirâmide",
      body: "Texto."
    }, m.in(m.alice))
    const post = expectOk(reply, 201)
    expect(post).toMatchObject({ pending: true, hidden: false, title: "Renda fácil: pirâmide" })
    expectOk(await api.get(`/api/content/${post.id}`, m.in(m.alice)))
    expectError(await api.get(`/api/content/${post.id}`, m.in(m.bruno)), 404)
    expect(await feedIds(m.bruno)).not.toContain(post.id)
    expect((await inbox(m.bruno)).some((n) => n.subject.id === post.id)).toBe(false)
    const item = (await queue()).find((i: any) => i.id === post.id)
    expect(item).toMatchObject({ type: "content", spaceId: m.feedSpace.id, excerpt: "Renda fácil: pirâmide: Texto." })
    expectOk(await decide("approve", post.id))
    expectOk(await api.get(`/api/content/${post.id}`, m.in(m.bruno)))
    expect(await feedIds(m.bruno)).toContain(post.id)
    expect(await events("post.created", post.id)).toBe(1)
  })
})

describe("a comment with a blocked word", () => {
  it("is held: out of the list and counts for others, no reply notification until approved", async () => {
    const post = await m.status(m.bruno, "Post do Bruno")
    const comment = expectOk(
      await api.post(`/api/status/${post.id}/comment`, { body: "Entra no golpe" }, m.in(m.alice)),
      201
    )
    expect(comment).toMatchObject({ pending: true, hidden: false })
    const listFor = async (user: { token: string }) =>
      (expectOk(await api.get(`/api/status/${post.id}/comments`, m.in(user))) as Array<any>).map((c) => c.id)
    expect(await listFor(m.alice)).toEqual([comment.id])
    expect(await listFor(m.bruno)).toEqual([])
    const counted = async () =>
      (expectOk(await api.get("/api/status?limit=100", m.in(m.bruno))) as Array<any>).find((p) => p.id === post.id)
        .commentCount
    expect(await counted()).toBe(0)
    expect((await inbox(m.bruno)).some((n) => n.kind === "reply" && n.subject.id === post.id)).toBe(false)
    expect((await queue()).find((i: any) => i.id === comment.id)).toMatchObject({
      type: "comment",
      itemType: "status",
      itemId: post.id
    })
    expectOk(await decide("approve", comment.id, m.owner))
    expect(await listFor(m.bruno)).toEqual([comment.id])
    expect(await counted()).toBe(1)
    expect((await inbox(m.bruno)).some((n) => n.kind === "reply" && n.subject.id === post.id)).toBe(true)
    expect(await events("comment.created", comment.id)).toBe(1)
  })
})

describe("moderation.holdFirstPosts", () => {
  it("holds a new member's first n posts and comments until approved; staff are never held", async () => {
    const dora = await m.addMember("member", "Dora Dias")
    expectOk(await settings(m, { holdFirstPosts: 2 }))
    const first = expectOk(await postStatus(dora, "Primeiro"), 201)
    expect(first.pending).toBe(true)
    // rejected and waiting ones do not count
    expectOk(await decide("reject", first.id))
    const second = expectOk(await postStatus(dora, "Segundo"), 201)
    expect(second.pending).toBe(true)
    expectOk(await decide("approve", second.id))
    const comment = expectOk(
      await api.post(`/api/status/${second.id}/comment`, { body: "Comentário" }, m.in(dora)),
      201
    )
    expect(comment.pending).toBe(true)
    expectOk(await decide("approve", comment.id))
    expect(expectOk(await postStatus(dora, "Terceiro"), 201).pending).toBe(false)
    const newAdmin = await m.addMember("admin", "Nina Nova")
    expect(expectOk(await postStatus(newAdmin, "Admin nova"), 201).pending).toBe(false)
    expectOk(await settings(m, { holdFirstPosts: 0 }))
    const eva = await m.addMember("member", "Eva Estreia")
    expect(expectOk(await postStatus(eva, "Sem espera"), 201).pending).toBe(false)
  })
})

describe("GET /api/moderation/pending", () => {
  it("is for owner, admin and moderator (403 with the role message otherwise)", async () => {
    for (const user of [m.owner, m.admin, m.moderator]) await queue(user)
    expectError(await api.get("/api/moderation/pending", m.in(m.alice)), 403, roleRequired(STAFF, "member"))
    expectError(await decide("approve", unknownId(), m.alice), 403, roleRequired(STAFF, "member"))
    expectError(await decide("reject", unknownId(), m.alice), 403, roleRequired(STAFF, "member"))
  })

  it("pages newest first by keyset", async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++) ids.push(expectOk(await postStatus(m.carla, `Golpe ${i}`), 201).id)
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(
        `/api/moderation/pending?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`,
        m.in(m.moderator)
      )
      seen.push(...(expectOk(reply) as Array<any>).map((item) => item.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse())
    expectInvalid(await api.get("/api/moderation/pending?limit=0", m.in(m.moderator)), "limit", "query")
    expectInvalid(await api.get("/api/moderation/pending?cursor=bm9wZQ", m.in(m.moderator)), "cursor", "query")
  })

  it("answers 404 for another community's item and 400 for an id that is not a UUID", async () => {
    const theirs = expectOk(await postStatus(other.alice, "Um golpe", other), 201)
    expect(theirs.pending).toBe(true)
    expectError(await decide("approve", theirs.id), 404, NOT_FOUND)
    expectError(await decide("reject", theirs.id), 404, NOT_FOUND)
    expect((await queue()).some((item: any) => item.id === theirs.id)).toBe(false)
    expectError(await decide("approve", unknownId()), 404, NOT_FOUND)
    expectInvalid(await decide("approve", "not-a-uuid"), "id", "params")
    expectOk(await decide("approve", theirs.id, other.moderator, other))
  })

  it("two moderators approving at once: one approval, one event, one log entry", async () => {
    const post = expectOk(await postStatus(m.alice, "Golpe disputado"), 201)
    const replies = await Promise.all([
      decide("approve", post.id, m.moderator),
      decide("approve", post.id, m.moderator2)
    ])
    expect(replies.map((r) => r.status).sort()).toEqual([200, 404])
    expect(await events("post.created", post.id)).toBe(1)
    const logged = await query<{ n: number }>((sql) =>
      sql`SELECT count(*)::int AS n FROM moderation_log WHERE subject_id = ${post.id}`
    )
    expect(logged[0]!.n).toBe(1)
  })
})
