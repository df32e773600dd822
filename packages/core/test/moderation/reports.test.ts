import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, unknownId, UUID } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  type ModerationCommunity,
  moderationCommunity,
  OWN_CONTENT,
  REPORT_EXISTS,
  REPORTED,
  SUBJECT_NOT_FOUND
} from "./setup"

/** Issue 56, item 1: members report posts, comments, content, events and profiles (`POST /api/reports`). */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let m: ModerationCommunity
let other: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Denúncias")
  other = await moderationCommunity(api, "Outra")
})

describe("POST /api/reports", () => {
  it("answers 201 with the new report, then 200 with the same report for the same reporter and subject", async () => {
    const post = await m.status(m.alice, "Compre seguidores baratos!")
    const first = await m.report(m.bruno, "status", post.id, "spam", "  Propaganda  ")
    const report = expectOk(first, 201, REPORTED)
    expect(report).toEqual({
      id: expect.stringMatching(UUID),
      caseId: expect.stringMatching(UUID),
      reporterProfileId: m.bruno.profileId,
      subjectType: "status",
      subjectId: post.id,
      reason: "spam",
      note: "Propaganda",
      createdAt: expect.any(String),
      alreadyReported: false
    })
    const again = expectOk(await m.report(m.bruno, "status", post.id, "hate"), 200, REPORT_EXISTS)
    expect(again).toEqual({ ...report, alreadyReported: true })
    // another member's report of the same post joins its case
    const carla = expectOk(await m.report(m.carla, "status", post.id, "harassment"), 201)
    expect(carla.caseId).toBe(report.caseId)
    expect(carla.id).not.toBe(report.id)
  })

  it("takes comments, content posts, events and profiles, each in a case of its own", async () => {
    const post = await m.status(m.alice)
    const comment = await m.comment(m.alice, post.id, "Comentário ofensivo")
    const content = await m.content(m.alice)
    const event = await m.event(m.owner)
    const cases = new Set<string>()
    for (
      const [type, id] of [["comment", comment.id], ["content", content.id], ["event", event.id], [
        "profile",
        m.alice.profileId
      ]]
    ) {
      const report = expectOk(await m.report(m.bruno, type!, id!.toUpperCase(), "other"), 201)
      expect(report).toMatchObject({ subjectType: type, subjectId: id, note: null })
      cases.add(report.caseId)
    }
    expect(cases.size).toBe(4)
  })

  it("answers 400 for reporting one's own post, comment, content, event or profile", async () => {
    const post = await m.status(m.alice)
    const comment = await m.comment(m.bruno, post.id)
    const content = await m.content(m.carla)
    const event = await m.event(m.owner)
    const own = [
      [m.alice, "status", post.id],
      [m.bruno, "comment", comment.id],
      [m.carla, "content", content.id],
      [m.owner, "event", event.id],
      [m.bruno, "profile", m.bruno.profileId]
    ] as const
    for (const [user, type, id] of own) {
      const body = expectError(await m.report(user, type, id), 400, OWN_CONTENT)
      expect(body.code).toBe("own_content")
      expect(body.errors[0]).toMatchObject({ param: "subjectId", location: "body" })
    }
  })

  it("answers 404 for an unknown subject, another community's, or one the reporter cannot read", async () => {
    const elsewhere = await other.status(other.alice)
    const otherEvent = await other.event(other.owner)
    const removed = await m.status(m.alice)
    expectOk(await api.del(`/api/status/${removed.id}`, m.in(m.alice)))
    const cases = [
      ["status", unknownId()],
      ["status", elsewhere.id],
      ["status", removed.id],
      ["comment", unknownId()],
      ["content", unknownId()],
      ["event", otherEvent.id],
      ["profile", other.alice.profileId],
      ["profile", unknownId()],
      ["submission", unknownId()],
      // an id of one type named as another
      ["comment", m.alice.profileId]
    ] as const
    for (const [type, id] of cases) {
      const body = expectError(await m.report(m.bruno, type, id), 404, SUBJECT_NOT_FOUND)
      expect(body.code).toBe("subject_not_found")
    }
  })

  it("answers 400 naming the field for bad input, never 5xx", async () => {
    const post = await m.status(m.alice)
    const as = m.in(m.bruno)
    expectInvalid(await api.post("/api/reports", { subjectId: post.id, reason: "spam" }, as), "subjectType")
    expectInvalid(
      await api.post("/api/reports", { subjectType: "course", subjectId: post.id, reason: "spam" }, as),
      "subjectType"
    )
    expectInvalid(
      await api.post("/api/reports", { subjectType: "status", subjectId: "42", reason: "spam" }, as),
      "subjectId"
    )
    expectInvalid(await api.post("/api/reports", { subjectType: "status", subjectId: post.id }, as), "reason")
    expectInvalid(
      await api.post("/api/reports", { subjectType: "status", subjectId: post.id, reason: "ugly" }, as),
      "reason"
    )
    expectInvalid(
      await api.post("/api/reports", {
        subjectType: "status",
        subjectId: post.id,
        reason: "spam",
        note: "x".repeat(2001)
      }, as),
      "note"
    )
    expectError(await api.call("POST", "/api/reports", { ...as, raw: "{nope" }), 400)
  })

  it("answers 401 without a token and 403 to a non-member", async () => {
    const post = await m.status(m.alice)
    const body = { subjectType: "status", subjectId: post.id, reason: "spam" }
    expectError(await api.post("/api/reports", body, { community: m.community.id }), 401)
    expectError(await api.post("/api/reports", body, other.in(other.bruno)), 404, SUBJECT_NOT_FOUND)
    expectError(await api.post("/api/reports", body, { token: other.bruno.token, community: m.community.id }), 403)
  })
})
