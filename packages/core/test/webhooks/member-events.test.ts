import { expect, it } from "vitest"
import { makeCommunity, uniqueEmail } from "../support/harness"
import { expectDeclared, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: membership changes reach the community's webhooks, each with the profile. */
const { api, receiver: running } = webhookSuite()

it("sends member.joined, member.role_changed and member.left, signed, with the profile", async () => {
  const { community, owner } = await makeCommunity(api, "Membros com ganchos")
  const as = { token: owner.token, community: community.id }
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/members"),
    events: ["member.joined", "member.role_changed", "member.left"]
  }, as)).body.data
  const added = await api.post("/api/profiles/create", { email: uniqueEmail("novo"), role: "member" }, as)
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const profileId = added.body.data.id
  expect((await api.put(`/api/profiles/${profileId}/role`, { role: "moderator" }, as)).status).toBe(200)
  expect((await api.del(`/api/profiles/${profileId}`, as)).status).toBe(200)

  const requests = await running().waitFor("/members", 3)
  const events = verifiedEvents(hook.secret, requests)
  expect(events.map((event) => event.type)).toEqual(["member.joined", "member.role_changed", "member.left"])
  expect(events[0].data).toMatchObject({ id: profileId, communityId: community.id, role: "member", status: "active" })
  expect(events[1].data).toMatchObject({ id: profileId, role: "moderator", previousRole: "member" })
  expect(events[2].data).toMatchObject({ id: profileId, removedAt: expect.any(String) })

  // a refused change emits nothing: nobody changes their own role
  const own = await api.put(`/api/profiles/${community.profileId}/role`, { role: "member" }, as)
  expect(own.status).toBe(403)
  // each payload is what the OpenAPI document's `webhooks` says it is
  await expectDeclared(api, events)

  const log = await api.get("/api/webhook-events", as)
  expect(log.body.data.map((event: { type: string }) => event.type).sort()).toEqual([
    "member.joined",
    "member.left",
    "member.role_changed"
  ])
})
