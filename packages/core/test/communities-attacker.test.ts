import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "./support/community"
import { expectError, expectInvalid, expectOk, roleRequired } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { createSection, createSpace } from "./support/structure"

/** An attacker's review of communities, profiles and structure: each test names what was possible before. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

describe("GET /api/profiles/list?tag= (tags are personal)", () => {
  it("does not tell a plain member or finance who carries a tag", async () => {
    const c = await newCommunity(api)
    const target = await c.addMember("member", "Teodoro Alvo")
    expectOk(
      await api.put(`/api/profiles/${target.profileId}/tags`, { tags: ["inadimplente"] }, as(c.owner, c.community))
    )
    for (const role of ["member", "finance"]) {
      const reader = await c.addMember(role)
      const reply = await api.get("/api/profiles/list?tag=inadimplente", as(reader, c.community))
      expectError(reply, 403, roleRequired(["owner", "admin", "moderator"], role))
      expect(JSON.stringify(reply.body)).not.toContain(target.profileId)
    }
  })

  it("still filters by tag for staff", async () => {
    const c = await newCommunity(api)
    const target = await c.addMember("member", "Teodoro Alvo")
    await c.addMember("member", "Outro Membro")
    expectOk(await api.put(`/api/profiles/${target.profileId}/tags`, { tags: ["vip"] }, as(c.owner, c.community)))
    const moderator = await c.addMember("moderator")
    const rows = expectOk(await api.get("/api/profiles/list?tag=vip", as(moderator, c.community)))
    expect(rows.map((p: { id: string }) => p.id)).toEqual([target.profileId])
  })
})

describe("PUT /api/spaces/{id} racing a move", () => {
  // On PGlite the two calls run one after the other; on PostgreSQL they overlap (the race).
  it("never moves a space back to its old section when another edit runs alongside the move", async () => {
    const c = await newCommunity(api)
    const from = await createSection(api, c, { title: "Antiga" })
    const to = await createSection(api, c, { title: "Nova" })
    for (let round = 0; round < 8; round++) {
      const space = await createSpace(api, c, from.id)
      const [move, rename] = await Promise.all([
        api.put(`/api/spaces/${space.id}`, { sectionId: to.id }, as(c.owner, c.community)),
        api.put(`/api/spaces/${space.id}`, { title: `Renomeado ${round}` }, as(c.owner, c.community))
      ])
      expectOk(move)
      expectOk(rename)
      const now = expectOk(await api.get(`/api/spaces/${space.id}`, as(c.owner, c.community)))
      expect({ sectionId: now.sectionId, title: now.title }).toEqual({ sectionId: to.id, title: `Renomeado ${round}` })
    }
  })
})

describe("PATCH /api/communities/{id}/settings timezone", () => {
  it("takes an IANA time zone and refuses anything else with 400 (param timezone)", async () => {
    const c = await newCommunity(api)
    const path = `/api/communities/${c.community.id}/settings`
    for (const timezone of ["Mars/Olympus", "UTC+99", "'; DROP TABLE x; --", " "]) {
      expectInvalid(await api.patch(path, { timezone }, as(c.owner, c.community)), "timezone")
    }
    const settings = expectOk(await api.patch(path, { timezone: "America/Sao_Paulo" }, as(c.owner, c.community)))
    expect(settings.settings.timezone).toBe("America/Sao_Paulo")
  })
})
