import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, held content after posting: a member's edit that brings a blocked word waits for
 * approval as a new post would; the log of approvals and rejections names what was decided (its
 * excerpt); and a reaction to hidden or held content notifies nobody.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Edições retidas")
  expectOk(
    await api.patch(`/api/communities/${m.community.id}/settings`, {
      moderation: { blockedWords: ["golpe", "pirâmide"] }
    }, m.in(m.owner))
  )
})

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<ReadonlyArray<A>>)
const webhookCount = (type: string, id: string) =>
  query<{ n: number }>((sql) =>
    sql`SELECT count(*)::int AS n FROM webhook_events WHERE type = ${type} AND data->>'id' = ${id}`
  ).then((rows) => rows[0]!.n)

const edit = (user: { token: string }, id: string, body: string) => api.put(`/api/status/${id}`, { body }, m.in(user))
const editComment = (user: { token: string }, statusId: string, id: string, body: string) =>
  api.put(`/api/status/${statusId}/comment/${id}`, { body }, m.in(user))
const statusList = async (user: { token: string }) =>
  expectOk(await api.get("/api/status?limit=100", m.in(user))) as Array<
    { id: string; body: string; pending: boolean; hidden: boolean; mentions: Array<any> }
  >
const comments = async (user: { token: string }, statusId: string) =>
  expectOk(await api.get(`/api/status/${statusId}/comments?limit=100`, m.in(user))) as Array<
    { id: string; body: string; pending: boolean }
  >
const feedIds = async (user: { token: string }) =>
  (expectOk(await api.get("/api/feed?limit=100", m.in(user))) as Array<{ id: string }>).map((item) => item.id)
const queue = async () => expectOk(await api.get("/api/moderation/pending?limit=100", m.in(m.moderator))) as Array<any>
const decide = (action: "approve" | "reject", id: string) =>
  api.post(`/api/moderation/pending/${id}/${action}`, undefined, m.in(m.moderator))
const kinds = async (user: { token: string }, id: string) =>
  (expectOk(await api.get("/api/notifications?limit=100", m.in(user))) as Array<any>)
    .filter((n) => n.subject.id === id)
    .map((n) => n.kind)
    .sort()
const logOf = async (id: string) =>
  (expectOk(await api.get("/api/moderation/log?limit=100", m.in(m.owner))) as Array<any>).filter(
    (entry) => entry.subject.id === id
  )
const react = (user: { token: string }, type: string, id: string, statusId?: string) =>
  type === "comment"
    ? api.post(`/api/status/${statusId}/comment/${id}/react`, { type: "like" }, m.in(user))
    : api.post(`/api/status/${id}/react`, { type: "like" }, m.in(user))

describe("an edit that brings a blocked word", () => {
  it("holds a published status post: pending for its author and staff, out for others, in the queue", async () => {
    const post = await m.status(m.alice, "Bom dia, pessoal")
    expect(await webhookCount("post.created", post.id)).toBe(1)
    const body = `Entrem na PIRÂMIDE com @[Carla](${m.carla.profileId})`
    const edited = expectOk(await edit(m.alice, post.id, body))
    // its mentions stay as they were until approval: Carla is not told of held content
    expect(edited).toMatchObject({ id: post.id, body, pending: true, hidden: false, mentions: [] })
    expect(await kinds(m.carla, post.id)).toEqual([])

    for (const user of [m.alice, m.moderator]) {
      expect((await statusList(user)).find((p) => p.id === post.id)).toMatchObject({ body, pending: true })
    }
    expect((await statusList(m.bruno)).some((p) => p.id === post.id)).toBe(false)
    expect(await feedIds(m.bruno)).not.toContain(post.id)
    expect((await queue()).find((item) => item.id === post.id)).toMatchObject({
      type: "status",
      excerpt: body,
      edited: true,
      author: { id: m.alice.profileId }
    })

    // approval shows the edited text and tells those it newly mentions; it is no new post
    expect(expectOk(await decide("approve", post.id))).toMatchObject({ id: post.id, status: "approved", edited: true })
    expect((await statusList(m.bruno)).find((p) => p.id === post.id)).toMatchObject({
      body,
      pending: false,
      hidden: false,
      mentions: [{ profileId: m.carla.profileId }]
    })
    expect(await feedIds(m.bruno)).toContain(post.id)
    expect(await kinds(m.carla, post.id)).toEqual(["mention"])
    expect(await webhookCount("post.created", post.id)).toBe(1)
    // the log names what was approved
    expect(await logOf(post.id)).toMatchObject([
      { action: "approve", caseId: null, subject: { type: "status", id: post.id, excerpt: body } }
    ])
  })

  it("on rejection removes the post for everyone, withdraws the notifications about it, and logs its excerpt", async () => {
    const post = await m.status(m.alice, "Um post comum")
    expectOk(await react(m.bruno, "status", post.id))
    expect(await kinds(m.alice, post.id)).toEqual(["reaction"])
    const body = "Agora é golpe"
    expect(expectOk(await edit(m.alice, post.id, body)).pending).toBe(true)
    expect(expectOk(await decide("reject", post.id))).toMatchObject({ status: "rejected", edited: true, excerpt: body })
    for (const user of [m.alice, m.bruno, m.owner]) {
      expect((await statusList(user)).some((p) => p.id === post.id)).toBe(false)
    }
    expect(await kinds(m.alice, post.id)).toEqual([])
    expect(await logOf(post.id)).toMatchObject([{ action: "reject", subject: { type: "status", excerpt: body } }])
  })

  it("holds a published comment; approval shows its edited text", async () => {
    const post = await m.status(m.bruno, "Post do Bruno")
    const comment = await m.comment(m.alice, post.id, "Concordo")
    const body = "Concordo, é um golpe bom"
    const edited = expectOk(await editComment(m.alice, post.id, comment.id, body))
    expect(edited).toMatchObject({ id: comment.id, body, pending: true })
    expect((await comments(m.carla, post.id)).some((c) => c.id === comment.id)).toBe(false)
    expect((await comments(m.alice, post.id)).find((c) => c.id === comment.id)).toMatchObject({ pending: true, body })
    expect((await queue()).find((item) => item.id === comment.id)).toMatchObject({
      type: "comment",
      excerpt: body,
      edited: true,
      itemType: "status",
      itemId: post.id
    })
    expectOk(await decide("approve", comment.id))
    expect((await comments(m.carla, post.id)).find((c) => c.id === comment.id)).toMatchObject({
      body,
      pending: false
    })
    expect(await webhookCount("comment.created", comment.id)).toBe(1)
  })

  it("is not held for staff, nor when the new text has no blocked word", async () => {
    const post = await m.status(m.alice, "Texto limpo")
    expect(expectOk(await edit(m.alice, post.id, "Texto ainda limpo")).pending).toBe(false)
    expect(expectOk(await edit(m.moderator, post.id, "Cuidado com o golpe")).pending).toBe(false)
    const own = await m.status(m.admin, "Aviso da administração")
    expect(expectOk(await edit(m.admin, own.id, "Aviso: pirâmide é crime")).pending).toBe(false)
    expect((await queue()).some((item) => item.id === post.id || item.id === own.id)).toBe(false)
  })

  it("keeps a moderator's hide: a hidden post held by an edit stays hidden once approved", async () => {
    const post = await m.status(m.alice, "Post que será escondido")
    const caseId = expectOk(await m.report(m.carla, "status", post.id), 201).caseId
    expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "hide" }, m.in(m.moderator)))
    expect(expectOk(await edit(m.alice, post.id, "Escondido e golpe"))).toMatchObject({ pending: true, hidden: true })
    expectOk(await decide("approve", post.id))
    expect((await statusList(m.alice)).find((p) => p.id === post.id)).toMatchObject({ pending: false, hidden: true })
    expect((await statusList(m.bruno)).some((p) => p.id === post.id)).toBe(false)
  })
})

describe("reactions to hidden or held content", () => {
  it("notify nobody: staff reacting to a held or hidden post", async () => {
    const held = expectOk(await api.post("/api/status", { body: "Um golpe novo" }, m.in(m.alice)), 201)
    expect(held.pending).toBe(true)
    expectOk(await react(m.moderator, "status", held.id))
    expect(await kinds(m.alice, held.id)).toEqual([])

    // (a held or hidden comment is out of its item's comments: nobody reacts to it, staff included)
    const post = await m.status(m.bruno, "Post com comentário retido")
    const comment = expectOk(
      await api.post(`/api/status/${post.id}/comment`, { body: "pirâmide" }, m.in(m.alice)),
      201
    )
    expect(comment.pending).toBe(true)
    expectError(await react(m.owner, "comment", comment.id, post.id), 404)

    const hidden = await m.status(m.alice, "Post escondido depois")
    const caseId = expectOk(await m.report(m.carla, "status", hidden.id), 201).caseId
    expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "hide" }, m.in(m.moderator)))
    expectOk(await react(m.admin, "status", hidden.id))
    expect(await kinds(m.alice, hidden.id)).toEqual(["moderation"])
    // others cannot react at all
    expectError(await react(m.bruno, "status", hidden.id), 404)

    // a visible post's author is told, as before
    const shown = await m.status(m.alice, "Post visível")
    expectOk(await react(m.moderator, "status", shown.id))
    expect(await kinds(m.alice, shown.id)).toEqual(["reaction"])
  })

  it("notify nobody for a hidden event: staff reacting to it leave its host's inbox as it was", async () => {
    const event = await m.event(m.admin)
    const caseId = expectOk(await m.report(m.carla, "event", event.id), 201).caseId
    expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "hide" }, m.in(m.moderator)))
    expectOk(await api.post(`/api/feed/event/${event.id}/react`, { type: "like" }, m.in(m.moderator)))
    expect(await kinds(m.admin, event.id)).toEqual(["moderation"])
  })
})
