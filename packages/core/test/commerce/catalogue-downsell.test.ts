import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  type CatalogueCommunity,
  catalogueCommunity,
  createPlan,
  draftOption,
  MANAGERS_ONLY,
  READERS_ONLY
} from "./catalogue-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CatalogueCommunity
let other: CatalogueCommunity
let plan: { id: string }
let otherPlan: { id: string }
beforeAll(async () => {
  setup = await catalogueCommunity(api, "Retenção")
  other = await catalogueCommunity(api, "Outra")
  plan = await createPlan(api, setup, [(await draftOption(api, setup)).id])
  otherPlan = await createPlan(api, other, [(await draftOption(api, other)).id])
})
const offers = (planId = plan.id) => `/api/subscription-groups/${planId}/downsell-offers`

describe("downsell offers", () => {
  it("creates, reads, edits and removes an offer", async () => {
    const created = expectCreated(
      await api.post(
        offers(),
        { percentOff: 50, durationCycles: 3, message: "Fique mais 3 meses pela metade" },
        setup.asOwner()
      ),
      "Oferta de retenção criada com sucesso."
    )
    expect(created).toMatchObject({
      communityId: setup.community.id,
      subscriptionGroupId: plan.id,
      percentOff: 50,
      durationCycles: 3,
      message: "Fique mais 3 meses pela metade",
      active: true
    })
    const path = `${offers()}/${created.id}`
    expect(expectOk(await api.get(path, setup.asOwner()), 200, "Oferta de retenção encontrada.").id).toBe(created.id)
    const edited = expectOk(
      await api.put(path, { percentOff: 100, active: false, message: null }, setup.asOwner()),
      200,
      "Oferta de retenção atualizada com sucesso."
    )
    expect(edited).toMatchObject({ percentOff: 100, durationCycles: 3, active: false, message: null })
    expectOk(await api.del(path, setup.asOwner()), 200, "Oferta de retenção removida com sucesso.")
    expectError(await api.get(path, setup.asOwner()), 404, "Oferta de retenção não encontrada.")
    expectError(await api.del(path, setup.asOwner()), 404)
  })

  it("lists a plan's offers oldest first with keyset pagination", async () => {
    const own = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    const made: Array<string> = []
    for (const percentOff of [10, 20, 30]) {
      made.push(expectCreated(await api.post(offers(own.id), { percentOff, durationCycles: 1 }, setup.asOwner())).id)
    }
    const first = await api.get(`${offers(own.id)}?limit=2`, setup.asOwner())
    expect(expectOk(first, 200, "Ofertas de retenção encontradas.").map((o: { id: string }) => o.id)).toEqual(
      made.slice(0, 2)
    )
    const second = await api.get(
      `${offers(own.id)}?limit=2&cursor=${first.body.pagination.nextCursor}`,
      setup.asOwner()
    )
    expect(expectOk(second).map((o: { id: string }) => o.id)).toEqual(made.slice(2))
    expect(second.body.pagination.nextCursor).toBeNull()
    expectOk(await api.get(offers(own.id), as(setup.people.finance, setup.community)))
  })

  it("refuses bad bodies with 400 and errors[].param", async () => {
    const post = (body: unknown) => api.post(offers(), body, setup.asOwner())
    expectInvalid(await post({ durationCycles: 1 }), "percentOff")
    expectInvalid(await post({ percentOff: 0, durationCycles: 1 }), "percentOff")
    expectInvalid(await post({ percentOff: 101, durationCycles: 1 }), "percentOff")
    expectInvalid(await post({ percentOff: 12.5, durationCycles: 1 }), "percentOff")
    expectInvalid(await post({ percentOff: 10 }), "durationCycles")
    expectInvalid(await post({ percentOff: 10, durationCycles: 0 }), "durationCycles")
    expectInvalid(await post({ percentOff: 10, durationCycles: 1, active: "yes" }), "active")
    expectInvalid(await post({ percentOff: 10, durationCycles: 1, message: "x".repeat(2001) }), "message")
    const offer = expectCreated(await post({ percentOff: 10, durationCycles: 1 }))
    expectInvalid(await api.put(`${offers()}/${offer.id}`, { percentOff: 0 }, setup.asOwner()), "percentOff")
    expectInvalid(await api.get(`${offers()}/nope`, setup.asOwner()), "offerId", "params")
    expectInvalid(await api.get(offers("nope"), setup.asOwner()), "id", "params")
  })

  it("answers 404 for another community's plan or offer, and for an offer of another plan", async () => {
    const foreignOffer = expectCreated(
      await api.post(offers(otherPlan.id), { percentOff: 10, durationCycles: 1 }, other.asOwner())
    )
    expectError(await api.get(offers(otherPlan.id), setup.asOwner()), 404)
    expectError(await api.post(offers(otherPlan.id), { percentOff: 10, durationCycles: 1 }, setup.asOwner()), 404)
    expectError(await api.get(`${offers(otherPlan.id)}/${foreignOffer.id}`, setup.asOwner()), 404)
    expectError(await api.get(`${offers()}/${foreignOffer.id}`, setup.asOwner()), 404)
    expectError(await api.get(offers(unknownId()), setup.asOwner()), 404, "Plano não encontrado.")
    const mine = expectCreated(await api.post(offers(), { percentOff: 10, durationCycles: 1 }, setup.asOwner()))
    const sibling = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    expectError(await api.put(`${offers(sibling.id)}/${mine.id}`, { percentOff: 5 }, setup.asOwner()), 404)
  })

  it("lets owner and admin manage, finance read; moderator and member get 403", async () => {
    const offer = expectCreated(
      await api.post(offers(), { percentOff: 15, durationCycles: 2 }, as(setup.people.admin, setup.community))
    )
    const path = `${offers()}/${offer.id}`
    expectOk(await api.get(path, as(setup.people.finance, setup.community)))
    for (const role of ["moderator", "member"] as const) {
      expectError(await api.get(offers(), as(setup.people[role], setup.community)), 403, READERS_ONLY(role))
      expectError(await api.get(path, as(setup.people[role], setup.community)), 403, READERS_ONLY(role))
    }
    for (const role of ["finance", "moderator", "member"] as const) {
      const who = as(setup.people[role], setup.community)
      expectError(await api.post(offers(), { percentOff: 10, durationCycles: 1 }, who), 403, MANAGERS_ONLY(role))
      expectError(await api.put(path, { percentOff: 10 }, who), 403, MANAGERS_ONLY(role))
      expectError(await api.del(path, who), 403, MANAGERS_ONLY(role))
    }
    expectOk(await api.del(path, as(setup.people.admin, setup.community)))
  })

  it("goes away with its plan", async () => {
    const own = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    const offer = expectCreated(await api.post(offers(own.id), { percentOff: 10, durationCycles: 1 }, setup.asOwner()))
    expectOk(await api.del(`/api/subscription-groups/${own.id}`, setup.asOwner()))
    expectError(await api.get(`${offers(own.id)}/${offer.id}`, setup.asOwner()), 404)
  })
})
