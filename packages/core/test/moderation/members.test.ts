import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, item 1: suspending a member (reads only until a date) and lifting it; who may act on
 * whom; what a suspended member may still do; the log. Acting on oneself is a 403 (a permission).
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const STAFF = ["owner", "admin", "moderator"]
const MEMBER_NOT_FOUND = "Membro não encontrado."
const SELF = "Você não pode moderar a si mesmo."
const OWNER_UNTOUCHABLE = "Ninguém pode suspender ou banir o dono da comunidade."
const ONLY_OWNER_ON_ADMIN = "Somente o dono da comunidade pode suspender ou banir um admin."
const suspendedMessage = (until: string) =>
  `Sua participação nesta comunidade está suspensa até ${until}: você pode ler, mas não publicar, comentar, reagir ou participar.`

type User = { token: string; profileId: string }
let m: ModerationCommunity
let other: ModerationCommunity
let admin2: User
beforeAll(async () => {
  m = await moderationCommunity(api, "Membros")
  other = await moderationCommunity(api, "Outra")
  admin2 = await m.addMember("admin", "Abel Admin")
})

const suspend = (
  user: { token: string },
  profileId: string,
  body: Record<string, unknown> = { days: 7, reason: "Spam" }
) => api.post(`/api/moderation/members/${profileId}/suspend`, body, m.in(user))
const unsuspend = (user: { token: string }, profileId: string) =>
  api.post(`/api/moderation/members/${profileId}/unsuspend`, undefined, m.in(user))

describe("POST /api/moderation/members/{profileId}/suspend and /unsuspend", () => {
  it("suspends for `days` from now and lifts it; both are logged with who, what, when and why", async () => {
    const before = Date.now()
    const data = expectOk(
      await suspend(m.moderator, m.carla.profileId, { days: 3, reason: " Spam repetido " }),
      200,
      "Membro suspenso."
    )
    expect(data.profileId).toBe(m.carla.profileId)
    const until = Date.parse(data.suspendedUntil)
    expect(until).toBeGreaterThanOrEqual(before + 3 * 86_400_000 - 1000)
    expect(until).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000 + 1000)
    expect(expectOk(await unsuspend(m.admin, m.carla.profileId), 200, "Suspensão encerrada.")).toEqual({
      profileId: m.carla.profileId,
      suspendedUntil: null
    })
    const [lifted, suspended] = expectOk(await api.get("/api/moderation/log?limit=2", m.in(m.moderator))) as Array<
      any
    >
    expect(lifted).toEqual({
      id: expect.any(String),
      action: "unsuspend",
      actor: { id: m.admin.profileId, fullName: "Ada Admin" },
      subject: { type: "profile", id: m.carla.profileId, excerpt: "Carla Costa" },
      caseId: null,
      note: null,
      until: null,
      createdAt: expect.any(String)
    })
    expect(suspended).toMatchObject({
      action: "suspend",
      actor: { id: m.moderator.profileId },
      subject: { type: "profile", id: m.carla.profileId },
      note: "Spam repetido",
      until: data.suspendedUntil
    })
  })

  it("refuses bad input with the field named", async () => {
    expectInvalid(await suspend(m.moderator, m.carla.profileId, { days: 0, reason: "x" }), "days")
    expectInvalid(await suspend(m.moderator, m.carla.profileId, { days: 366, reason: "x" }), "days")
    expectInvalid(await suspend(m.moderator, m.carla.profileId, { days: 1.5, reason: "x" }), "days")
    expectInvalid(await suspend(m.moderator, m.carla.profileId, { days: 1 }), "reason")
    expectInvalid(await suspend(m.moderator, m.carla.profileId, { days: 1, reason: "  " }), "reason")
    expectInvalid(await suspend(m.moderator, "nope", { days: 1, reason: "x" }), "profileId", "params")
  })

  it("is for staff only, never on oneself, and finds only active members of this community", async () => {
    expectError(await suspend(m.alice, m.bruno.profileId), 403, roleRequired(STAFF, "member"))
    expectError(await unsuspend(m.alice, m.bruno.profileId), 403, roleRequired(STAFF, "member"))
    expectError(await suspend(m.moderator, m.moderator.profileId), 403, SELF)
    expectError(await suspend(m.owner, m.owner.profileId), 403, SELF)
    expectError(await suspend(m.moderator, other.alice.profileId), 404, MEMBER_NOT_FOUND)
    expectError(await unsuspend(m.moderator, unknownId()), 404, MEMBER_NOT_FOUND)
  })

  it("follows the rank rules: nobody on an owner, only an owner on an admin", async () => {
    expectError(await suspend(m.moderator, m.admin.profileId), 403, ONLY_OWNER_ON_ADMIN)
    expectError(await suspend(admin2, m.admin.profileId), 403, ONLY_OWNER_ON_ADMIN)
    for (const user of [m.admin, m.moderator]) {
      expectError(await suspend(user, m.owner.profileId), 403, OWNER_UNTOUCHABLE)
      expectError(await unsuspend(user, m.owner.profileId), 403, OWNER_UNTOUCHABLE)
    }
    expectOk(await suspend(m.owner, m.admin.profileId))
    expectOk(await unsuspend(m.owner, m.admin.profileId))
    expectOk(await suspend(m.moderator, m.moderator2.profileId))
    expectOk(await unsuspend(m.admin, m.moderator2.profileId))
  })
})

describe("a suspended member", () => {
  it("reads but cannot post, comment, react or take part (403 with the end date) until lifted", async () => {
    const post = await m.status(m.alice, "Post da Alice")
    const event = await m.event()
    const { suspendedUntil } = expectOk(await suspend(m.moderator, m.bruno.profileId, { days: 30, reason: "Ofensas" }))
    const refused = suspendedMessage(suspendedUntil)
    const bruno = m.in(m.bruno)
    expectError(await api.post("/api/status", { body: "Voltei" }, bruno), 403, refused)
    expectError(
      await api.post("/api/status", { body: `Oi @[Alice](${m.alice.profileId})` }, bruno),
      403,
      refused
    )
    expectError(
      await api.post("/api/content", { spaceId: m.feedSpace.id, title: "T", body: "B" }, bruno),
      403,
      refused
    )
    expectError(await api.post(`/api/status/${post.id}/comment`, { body: "Oi" }, bruno), 403, refused)
    expectError(await api.post(`/api/status/${post.id}/react`, { type: "like" }, bruno), 403, refused)
    expectError(await api.post(`/api/events/${event.id}/participate`, undefined, bruno), 403, refused)
    // English on request
    const english = await api.post("/api/status", { body: "Hi" }, { ...bruno, headers: { "accept-language": "en" } })
    expect(english.status).toBe(403)
    // nothing was written; reading still works
    const list = expectOk(await api.get("/api/status", bruno)) as Array<any>
    expect(list.some((p) => p.body === "Voltei" || p.body.startsWith("Oi @"))).toBe(false)
    expect(list.some((p) => p.id === post.id)).toBe(true)
    expectOk(await api.get(`/api/status/${post.id}/comments`, bruno))

    expectOk(await unsuspend(m.moderator, m.bruno.profileId))
    expectOk(await api.post("/api/status", { body: "Voltei" }, bruno), 201)
    expectOk(await api.post(`/api/status/${post.id}/comment`, { body: "Oi" }, bruno), 201)
    expectOk(await api.post(`/api/status/${post.id}/react`, { type: "like" }, bruno))
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, bruno))
  })
})
