import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectCreated, expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSpace } from "../support/structure"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, "Limits on abuse": the community's slow mode (`moderation.slowModeSeconds`): a member
 * who is not staff publishes at most one content post per N seconds in each space, counted in the
 * database (two posts at once: one passes). Status posts and comments are not slowed.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const TOO_MANY = "Muitas solicitações. Tente novamente mais tarde."

let m: ModerationCommunity
let secondSpace: { id: string }
beforeAll(async () => {
  m = await moderationCommunity(api, "Modo lento")
  const section = expectOk(await api.get("/api/sections", m.in(m.owner))) as Array<{ id: string }>
  secondSpace = await createSpace(api, m, section[0]!.id, { module: "feed", visibility: "public", title: "Outro" })
})

const settings = (body: Record<string, unknown>, user: { token: string } = m.owner) =>
  api.patch(`/api/communities/${m.community.id}/settings`, body, m.in(user))
const slowMode = (seconds: number, user: { token: string } = m.owner) =>
  settings({ moderation: { slowModeSeconds: seconds } }, user)
const post = (user: { token: string }, spaceId = m.feedSpace.id, title = "Post") =>
  api.post("/api/content", { spaceId, title, body: "Texto." }, m.in(user))

describe("moderation.slowModeSeconds", () => {
  it("is validated (0 to 3600, whole seconds) and merged into the moderation settings", async () => {
    expectInvalid(await slowMode(3601), "moderation.slowModeSeconds")
    expectInvalid(await slowMode(-1), "moderation.slowModeSeconds")
    expectInvalid(await slowMode(1.5), "moderation.slowModeSeconds")
    const saved = expectOk(await slowMode(0))
    expect(saved.settings.moderation).toMatchObject({ slowModeSeconds: 0 })
    const other = expectOk(await settings({ description: "Sem mudar o modo lento" }))
    expect(other.settings.moderation).toMatchObject({ slowModeSeconds: 0 })
    expectError(await slowMode(60, m.moderator), 403)
  })

  it("answers 429 with Retry-After to a member posting again in a space too soon; other spaces are counted apart", async () => {
    expectOk(await slowMode(600))
    expectCreated(await post(m.alice))
    const refused = await post(m.alice, m.feedSpace.id, "De novo")
    expectError(refused, 429, TOO_MANY)
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(590)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(refused.headers.get("ratelimit-policy")).toBe(`"slowMode";q=1;w=600`)
    const english = await api.post("/api/content", { spaceId: m.feedSpace.id, title: "T", body: "B" }, {
      ...m.in(m.alice),
      headers: { "accept-language": "en" }
    })
    expectError(english, 429, "Too many requests. Try again later.")
    // another space, and another member, have their own count
    expectCreated(await post(m.alice, secondSpace.id))
    expectCreated(await post(m.bruno))
    // status posts and comments are not slowed
    const status = expectCreated(await api.post("/api/status", { body: "Oi" }, m.in(m.alice)))
    expectCreated(await api.post("/api/status", { body: "Oi de novo" }, m.in(m.alice)))
    expectCreated(await api.post(`/api/status/${status.id}/comment`, { body: "C1" }, m.in(m.alice)))
    expectCreated(await api.post(`/api/status/${status.id}/comment`, { body: "C2" }, m.in(m.alice)))
  })

  it("does not slow staff", async () => {
    expectOk(await slowMode(600))
    for (const user of [m.owner, m.admin, m.moderator]) {
      expectCreated(await post(user))
      expectCreated(await post(user))
    }
  })

  it("holds under concurrency: of two posts at once, one passes", async () => {
    expectOk(await slowMode(600))
    const [a, b] = await Promise.all([post(m.carla, secondSpace.id, "A"), post(m.carla, secondSpace.id, "B")])
    expect([a.status, b.status].sort()).toEqual([201, 429])
  })

  it("is off at 0", async () => {
    expectOk(await slowMode(0))
    const dora = await m.addMember("member", "Dora Dias")
    expectCreated(await post(dora))
    expectCreated(await post(dora))
  })
})
