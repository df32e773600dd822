import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contract, fails, ok, okAt } from "../support/contract"
import { unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { createSpace, entitle, setGrants } from "../support/structure"
import { createEvent, type EventCommunity, eventCommunity } from "./support"

const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
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
    events[name as keyof typeof spaces] = await createEvent(typed, { ...setup, space: s }, { title: `Evento ${name}` })
  }
  const entitled = await setup.addMember("member")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  viewers = { member: await setup.addMember("member"), entitled, moderator: await setup.addMember("moderator") }
})

/** `viewer` in the community, or an anonymous visitor. */
const clientOf = (viewer?: { token: string }) =>
  viewer ? typed.as(viewer, setup.community) : typed.anonymous(setup.community)
const detail = (name: keyof typeof events, viewer?: { token: string }) =>
  clientOf(viewer).events.detail({ path: { id: events[name].id } })
const participate = (name: keyof typeof events, viewer: { token: string }) =>
  clientOf(viewer).events.participate({ path: { id: events[name].id } })
const listed = async (viewer?: { token: string }) =>
  new Set((await ok(clientOf(viewer).events.list({ urlParams: { limit: 100 } }))).data.map((e) => e.id))
const ids = (...names: Array<keyof typeof events>) => new Set(names.map((name) => events[name].id))

describe("events and Access", () => {
  it("anonymous: public spaces without grants only", async () => {
    await ok(detail("public"))
    await okAt(clientOf().events.calendar({ path: { id: events.public.slug }, withResponse: true }), 200)
    await fails(detail("private"), 404)
    await fails(detail("secret"), 404)
    await fails(detail("gated"), 403, "Você não tem acesso ao conteúdo deste espaço.")
    await fails(clientOf().events.participants({ path: { id: events.gated.id }, urlParams: {} }), 403)
    await fails(clientOf().events.calendar({ path: { id: events.gated.id } }), 403)
    expect(await listed()).toEqual(ids("public"))
  })

  it("member: public and private; gated needs an entitlement, secret stays hidden", async () => {
    await ok(detail("private", viewers.member))
    await fails(detail("gated", viewers.member), 403)
    await fails(detail("secret", viewers.member), 404)
    expect(await listed(viewers.member)).toEqual(ids("public", "private"))
    await ok(participate("private", viewers.member))
    await fails(participate("gated", viewers.member), 403)
    await fails(participate("secret", viewers.member), 404)
  })

  it("entitled member and staff: everything", async () => {
    for (const name of ["public", "private", "gated", "secret"] as const) {
      await ok(detail(name, viewers.entitled))
      await ok(detail(name, viewers.moderator))
    }
    expect(await listed(viewers.entitled)).toEqual(ids("public", "private", "gated", "secret"))
    expect(await listed(viewers.moderator)).toEqual(ids("public", "private", "gated", "secret"))
    await ok(participate("gated", viewers.entitled))
    await ok(participate("secret", viewers.moderator))
  })

  it("a non-member's token reads like an anonymous visitor and cannot participate", async () => {
    const stranger = await register(api)
    await ok(detail("public", stranger))
    await fails(detail("private", stranger), 404)
    await fails(participate("public", stranger), 403)
  })
})
