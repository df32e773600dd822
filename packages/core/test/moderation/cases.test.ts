import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  ALREADY_RESOLVED,
  CASE_NOT_FOUND,
  type ModerationCommunity,
  moderationCommunity,
  NOT_SUPPORTED,
  RESOLVED
} from "./setup"

/** Issue 56, item 1: the staff's queue of cases, their resolution, and the moderation log. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const STAFF = ["owner", "admin", "moderator"]

let m: ModerationCommunity
let other: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Casos")
  other = await moderationCommunity(api, "Outra")
})

const openCases = async (user: { token: string } = m.moderator, query = "") =>
  expectOk(await api.get(`/api/moderation/cases${query}`, m.in(user)), 200, "Casos de moderação.") as Array<any>
const resolve = (user: { token: string }, caseId: string, body: Record<string, unknown>) =>
  api.post(`/api/moderation/cases/${caseId}/resolve`, body, m.in(user))
const reported = async (type = "status") => {
  const post = await m.status(m.alice, `Post para ${type} ${unknownId()}`)
  const report = expectOk(await m.report(m.bruno, "status", post.id, "spam"), 201)
  return { post, caseId: report.caseId as string }
}

describe("GET /api/moderation/cases", () => {
  it("lists open cases newest first, each with its subject, report count and distinct reasons", async () => {
    const post = await m.status(m.alice, "Isto é spam evidente")
    expectOk(await m.report(m.bruno, "status", post.id, "spam"), 201)
    expectOk(await m.report(m.carla, "status", post.id, "harassment"), 201)
    expectOk(await m.report(m.admin, "status", post.id, "spam"), 201)
    const profileCase = expectOk(await m.report(m.bruno, "profile", m.carla.profileId, "other"), 201).caseId
    for (const user of [m.owner, m.admin, m.moderator]) {
      const cases = await openCases(user)
      expect(cases[0].id).toBe(profileCase)
      const found = cases.find((c) => c.subject.id === post.id)
      expect(found).toEqual({
        id: expect.any(String),
        subject: {
          type: "status",
          id: post.id,
          excerpt: "Isto é spam evidente",
          author: { id: m.alice.profileId, fullName: "Alice Alves" }
        },
        reportCount: 3,
        reasons: ["harassment", "spam"],
        status: "open",
        createdAt: expect.any(String),
        resolvedAt: null,
        resolution: null
      })
      expect(cases[0].subject).toEqual({
        type: "profile",
        id: m.carla.profileId,
        excerpt: "Carla Costa",
        author: { id: m.carla.profileId, fullName: "Carla Costa" }
      })
    }
  })

  it("pages by keyset and filters by status", async () => {
    await reported()
    await reported()
    const first = await api.get("/api/moderation/cases?limit=1", m.in(m.moderator))
    expect(first.body.data).toHaveLength(1)
    expect(first.body.pagination.nextCursor).toEqual(expect.any(String))
    const second = await api.get(
      `/api/moderation/cases?limit=1&cursor=${first.body.pagination.nextCursor}`,
      m.in(m.moderator)
    )
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id)
    expect(second.body.data[0].createdAt <= first.body.data[0].createdAt).toBe(true)
    expect((await openCases(m.moderator, "?status=resolved")).every((c) => c.status === "resolved")).toBe(true)
    expectInvalid(await api.get("/api/moderation/cases?status=closed", m.in(m.moderator)), "status", "query")
    expectInvalid(await api.get("/api/moderation/cases?limit=0", m.in(m.moderator)), "limit", "query")
    expectInvalid(await api.get("/api/moderation/cases?cursor=bm9wZQ", m.in(m.moderator)), "cursor", "query")
  })

  it("answers 403 to members and finance, and shows no other community's cases", async () => {
    const finance = await m.addMember("finance", "Fábio Finanças")
    for (const [user, role] of [[m.alice, "member"], [finance, "finance"]] as const) {
      expectError(await api.get("/api/moderation/cases", m.in(user)), 403, roleRequired(STAFF, role))
    }
    const elsewhere = await other.status(other.alice)
    expectOk(await other.report(other.bruno, "status", elsewhere.id), 201)
    expect((await openCases()).some((c) => c.subject.id === elsewhere.id)).toBe(false)
  })
})

describe("POST /api/moderation/cases/{id}/resolve", () => {
  it("dismisses a case: resolved with the action, note and moderator; the post stays", async () => {
    const { caseId, post } = await reported()
    const data = expectOk(
      await resolve(m.moderator, caseId, { action: "dismiss", note: " Não é spam. " }),
      200,
      RESOLVED
    )
    expect(data).toMatchObject({
      id: caseId,
      status: "resolved",
      resolvedAt: expect.any(String),
      resolution: {
        action: "dismiss",
        note: "Não é spam.",
        resolvedBy: { id: m.moderator.profileId, fullName: "Maria Moderadora" }
      }
    })
    expect((await openCases()).some((c) => c.id === caseId)).toBe(false)
    expect((await openCases(m.moderator, "?status=resolved")).find((c) => c.id === caseId)).toEqual(data)
    const list = expectOk(await api.get("/api/status", m.in(m.bruno))) as Array<{ id: string }>
    expect(list.some((p) => p.id === post.id)).toBe(true)
  })

  it("answers 409 naming the status for a resolved case, 404 for unknown or another community's", async () => {
    const { caseId } = await reported()
    expectOk(await resolve(m.admin, caseId, { action: "dismiss" }))
    const body = expectError(await resolve(m.owner, caseId, { action: "hide" }), 409, ALREADY_RESOLVED)
    expect(body.errors[0]).toMatchObject({ param: "status" })
    const elsewhere = await other.status(other.alice)
    const otherCase = expectOk(await other.report(other.bruno, "status", elsewhere.id), 201).caseId
    expectError(await resolve(m.owner, otherCase, { action: "dismiss" }), 404, CASE_NOT_FOUND)
    expectError(await resolve(m.owner, unknownId(), { action: "dismiss" }), 404, CASE_NOT_FOUND)
    // the other community's case is untouched
    const theirs = expectOk(await api.get("/api/moderation/cases", other.in(other.moderator))) as Array<any>
    expect(theirs.find((c) => c.id === otherCase)?.status).toBe("open")
  })

  it("answers 400 for bad input and for hide or remove on profiles (dismiss works)", async () => {
    const { caseId } = await reported()
    expectInvalid(await resolve(m.moderator, caseId, {}), "action")
    expectInvalid(await resolve(m.moderator, caseId, { action: "ban" }), "action")
    expectInvalid(await resolve(m.moderator, caseId, { action: "dismiss", note: "x".repeat(2001) }), "note")
    expectInvalid(await resolve(m.moderator, caseId, { action: "dismiss", extra: 1 }), "extra")
    expectInvalid(
      await api.post("/api/moderation/cases/42/resolve", { action: "dismiss" }, m.in(m.moderator)),
      "id",
      "params"
    )
    // a profile is a person, not content (events: events.test.ts; submissions: submissions.test.ts)
    const profileCase = expectOk(await m.report(m.alice, "profile", m.carla.profileId, "spam"), 201).caseId
    for (const action of ["hide", "remove"]) {
      const body = expectError(
        await resolve(m.moderator, profileCase, { action }),
        400,
        NOT_SUPPORTED(action, "profile")
      )
      expect(body.code).toBe("action_not_supported")
      expect(body.errors[0]).toMatchObject({ param: "action" })
    }
    // the member is untouched (still an active member others may report), and the case is closed by dismiss
    expect(expectOk(await m.report(m.owner, "profile", m.carla.profileId), 201).caseId).toBe(profileCase)
    expectOk(await resolve(m.moderator, profileCase, { action: "dismiss" }))
  })

  it("names the caller as the moderator when acting as another profile; the empty note is none", async () => {
    const { caseId } = await reported()
    const acting = { ...m.in(m.owner), profile: m.carla.profileId }
    const data = expectOk(
      await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "dismiss", note: " " }, acting)
    )
    expect(data.resolution).toEqual({
      action: "dismiss",
      note: null,
      resolvedBy: { id: m.owner.profileId, fullName: "Olga Owner" }
    })
  })

  it("answers 403 to a member with the standard message", async () => {
    const { caseId } = await reported()
    expectError(await resolve(m.bruno, caseId, { action: "dismiss" }), 403, roleRequired(STAFF, "member"))
  })

  it("opens a new case for a new report after a dismissal; the earlier reporter keeps their report", async () => {
    const post = await m.status(m.alice)
    const first = expectOk(await m.report(m.bruno, "status", post.id), 201)
    expectOk(await resolve(m.moderator, first.caseId, { action: "dismiss" }))
    const again = expectOk(await m.report(m.bruno, "status", post.id), 200)
    expect(again.id).toBe(first.id)
    const fresh = expectOk(await m.report(m.carla, "status", post.id, "hate"), 201)
    expect(fresh.caseId).not.toBe(first.caseId)
    const open = (await openCases()).find((c) => c.id === fresh.caseId)
    expect(open).toMatchObject({ status: "open", reportCount: 1, reasons: ["hate"] })
  })
})

describe("concurrency", () => {
  it("50 members reporting one post at once make one case of 50 reports", async () => {
    const members = await Promise.all(Array.from({ length: 50 }, (_, i) => m.addMember("member", `Pessoa ${i}`)))
    const post = await m.status(m.alice, "Post muito denunciado")
    const replies = await Promise.all(members.map((user) => m.report(user, "status", post.id, "spam")))
    expect(replies.map((r) => r.status)).toEqual(members.map(() => 201))
    const caseIds = new Set(replies.map((r) => r.body.data.caseId))
    expect(caseIds.size).toBe(1)
    const found = (await openCases()).filter((c) => c.subject.id === post.id)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ reportCount: 50, reasons: ["spam"] })
  })

  it("the same member reporting twice at once gets one report (201 and 200)", async () => {
    const post = await m.status(m.alice)
    const replies = await Promise.all([1, 2].map(() => m.report(m.carla, "status", post.id)))
    expect(replies.map((r) => r.status).sort()).toEqual([200, 201])
    expect(replies[0]!.body.data.id).toBe(replies[1]!.body.data.id)
  })

  it("two moderators resolving one case at once give one resolution; the other gets 409", async () => {
    const { caseId } = await reported()
    const replies = await Promise.all([
      resolve(m.moderator, caseId, { action: "hide", note: "um" }),
      resolve(m.moderator2, caseId, { action: "dismiss", note: "dois" })
    ])
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
    const loser = replies.find((r) => r.status === 409)!
    expectError(loser, 409, ALREADY_RESOLVED)
    const log = expectOk(await api.get("/api/moderation/log?limit=100", m.in(m.moderator))) as Array<any>
    expect(log.filter((entry) => entry.caseId === caseId)).toHaveLength(1)
  })
})

describe("GET /api/moderation/log", () => {
  it("lists every action newest first: who, what, when and why", async () => {
    const post = await m.status(m.alice, "Post a esconder")
    const caseId = expectOk(await m.report(m.bruno, "status", post.id), 201).caseId
    expectOk(await resolve(m.admin, caseId, { action: "hide", note: "Fora do tema" }))
    const { caseId: second } = await reported()
    expectOk(await resolve(m.owner, second, { action: "dismiss" }))
    const page = await api.get("/api/moderation/log?limit=2", m.in(m.moderator))
    const [newest, older] = expectOk(page, 200, "Registro de moderação.") as Array<any>
    expect(newest).toMatchObject({ action: "dismiss", caseId: second, note: null, actor: { id: m.owner.profileId } })
    expect(older).toEqual({
      id: expect.any(String),
      action: "hide",
      actor: { id: m.admin.profileId, fullName: "Ada Admin" },
      subject: { type: "status", id: post.id, excerpt: "Post a esconder" },
      caseId,
      note: "Fora do tema",
      until: null,
      createdAt: expect.any(String)
    })
    expect(page.body.pagination.nextCursor).toEqual(expect.any(String))
    const next = expectOk(
      await api.get(`/api/moderation/log?limit=2&cursor=${page.body.pagination.nextCursor}`, m.in(m.moderator))
    ) as Array<any>
    expect(next.map((e) => e.id)).not.toContain(newest.id)
    expectError(await api.get("/api/moderation/log", m.in(m.alice)), 403, roleRequired(STAFF, "member"))
    expectInvalid(await api.get("/api/moderation/log?cursor=bm9wZQ", m.in(m.moderator)), "cursor", "query")
    const theirs = expectOk(await api.get("/api/moderation/log", other.in(other.owner))) as Array<any>
    expect(theirs.some((e) => e.caseId === caseId)).toBe(false)
  })
})
