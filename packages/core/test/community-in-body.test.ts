import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, makeCommunity, startRoda, uniqueEmail } from "./support/harness"

/** Spec §5, X-CommunityId rule 4, enforced once for every community-scoped route. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let a: Awaited<ReturnType<typeof makeCommunity>>
let b: Awaited<ReturnType<typeof makeCommunity>>
beforeAll(async () => {
  a = await makeCommunity(api, "Alfa")
  b = await makeCommunity(api, "Beta")
})

const MISMATCH = {
  success: false,
  code: "community_mismatch",
  message: "communityId must equal the X-CommunityId header",
  errors: [{ param: "communityId", msg: "communityId must equal the X-CommunityId header", location: "body" }]
}

describe("communityId in a body", () => {
  it("must equal the header, on any route that takes a body", async () => {
    const auth = { token: a.owner.token, community: a.community.id }
    const invite = await api.post("/api/profiles/invite", { email: uniqueEmail(), communityId: b.community.id }, auth)
    expect(invite.status).toBe(400)
    expect(invite.body).toEqual(MISMATCH)
    const settings = await api.put(
      "/api/notification-settings",
      { salesEmail: null, communityId: b.community.id },
      auth
    )
    expect(settings.status).toBe(400)
    expect(settings.body).toEqual(MISMATCH)
    const notAString = await api.put("/api/notification-settings", { salesEmail: null, communityId: 7 }, auth)
    expect(notAString.status).toBe(400)
  })

  it("is accepted when it names the header's community, in any case", async () => {
    const auth = { token: a.owner.token, community: a.community.id }
    const reply = await api.post(
      "/api/profiles/create",
      { email: uniqueEmail(), communityId: a.community.id.toUpperCase() },
      auth
    )
    expect(reply.status).toBe(201)
    expect(reply.body.data.communityId).toBe(a.community.id)
  })

  it("comes after membership: a stranger still gets 403", async () => {
    const reply = await api.post(
      "/api/profiles/invite",
      { email: uniqueEmail(), communityId: a.community.id },
      { token: b.owner.token, community: a.community.id }
    )
    expect(reply.status).toBe(403)
  })
})
