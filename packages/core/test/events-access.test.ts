import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "./support/community"
import { expectError, expectOk, unknownId } from "./support/envelope"
import { createEvent, type EventCommunity, eventCommunity } from "./support/events"
import { client, register, startRoda } from "./support/harness"
import { createSpace, entitle, setGrants } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

/** Events in four events spaces: public, private, gated (public with a plan grant) and secret (same grant). */
let setup: EventCommunity
const plan = unknownId()
const events = {} as Record<"public" | "private" | "gated" | "secret", { id: string; slug: string }>
let viewers: Record<"member" | "entitled" | "moderator", { token: string }>
beforeAll(async () => {
  setup = await eventCommunity(api, "Acesso Eventos")
  const space = (visibility: string, title: string) =>
    createSpace(api, setup, setup.section.id, { visibility, title, module: "events" })
  const spaces = {
    public: setup.space,
    private: await space("private", "Privado"),
    gated: await space("public", "Pago"),
    secret: await space("secret", "Secreto")
  }
  await setGrants(roda, spaces.gated.id, { plans: [plan] })
  await setGrants(roda, spaces.secret.id, { plans: [plan] })
  for (const [name, s] of Object.entries(spaces)) {
    events[name as keyof typeof spaces] = await createEvent(api, { ...setup, space: s }, { title: `Evento ${name}` })
  }
  const entitled = await setup.addMember("member")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  viewers = { member: await setup.addMember("member"), entitled, moderator: await setup.addMember("moderator") }
})

const options = (viewer?: { token: string }) => viewer ? as(viewer, setup.community) : { community: setup.community.id }
const detail = (name: keyof typeof events, viewer?: { token: string }) =>
  api.get(`/api/events/${events[name].id}`, options(viewer))
const listed = async (viewer?: { token: string }) =>
  new Set(expectOk(await api.get("/api/events?limit=100", options(viewer))).map((e: { id: string }) => e.id))
const ids = (...names: Array<keyof typeof events>) => new Set(names.map((name) => events[name].id))

describe("events and Access", () => {
  it("anonymous: public spaces without grants only", async () => {
    expectOk(await detail("public"))
    expect((await api.get(`/api/events/${events.public.slug}/calendar.ics`, options())).status).toBe(200)
    expectError(await detail("private"), 404)
    expectError(await detail("secret"), 404)
    expectError(await detail("gated"), 403, "Você não tem acesso ao conteúdo deste espaço.")
    expectError(await api.get(`/api/events/${events.gated.id}/participants`, options()), 403)
    expectError(await api.get(`/api/events/${events.gated.id}/calendar.ics`, options()), 403)
    expect(await listed()).toEqual(ids("public"))
  })

  it("member: public and private; gated needs an entitlement, secret stays hidden", async () => {
    expectOk(await detail("private", viewers.member))
    expectError(await detail("gated", viewers.member), 403)
    expectError(await detail("secret", viewers.member), 404)
    expect(await listed(viewers.member)).toEqual(ids("public", "private"))
    expectOk(await api.post(`/api/events/${events.private.id}/participate`, undefined, options(viewers.member)))
    expectError(await api.post(`/api/events/${events.gated.id}/participate`, undefined, options(viewers.member)), 403)
    expectError(await api.post(`/api/events/${events.secret.id}/participate`, undefined, options(viewers.member)), 404)
  })

  it("entitled member and staff: everything", async () => {
    for (const name of ["public", "private", "gated", "secret"] as const) {
      expectOk(await detail(name, viewers.entitled))
      expectOk(await detail(name, viewers.moderator))
    }
    expect(await listed(viewers.entitled)).toEqual(ids("public", "private", "gated", "secret"))
    expect(await listed(viewers.moderator)).toEqual(ids("public", "private", "gated", "secret"))
    expectOk(await api.post(`/api/events/${events.gated.id}/participate`, undefined, options(viewers.entitled)))
    expectOk(await api.post(`/api/events/${events.secret.id}/participate`, undefined, options(viewers.moderator)))
  })

  it("a non-member's token reads like an anonymous visitor and cannot participate", async () => {
    const stranger = await register(api)
    expectOk(await detail("public", stranger))
    expectError(await detail("private", stranger), 404)
    expectError(await api.post(`/api/events/${events.public.id}/participate`, undefined, options(stranger)), 403)
  })
})
