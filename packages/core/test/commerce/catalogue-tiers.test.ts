import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activePlanOption, approveBusiness } from "../support/selling"
import {
  type CatalogueCommunity,
  catalogueCommunity,
  createPlan,
  draftOption,
  MANAGERS_ONLY
} from "./catalogue-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const PLAN_UNKNOWN = "Plano não encontrado ou não pertence a esta comunidade."

let setup: CatalogueCommunity
let other: CatalogueCommunity
let basic: { id: string }
let pro: { id: string }
let monthly: { id: string }
let annual: { id: string }
beforeAll(async () => {
  setup = await catalogueCommunity(api, "Preços")
  other = await catalogueCommunity(api, "Outra")
  await approveBusiness(api, setup.owner, setup.community)
  monthly = await activePlanOption(api, setup.owner, setup.community, { title: "Pro mensal" })
  annual = await activePlanOption(api, setup.owner, setup.community, {
    title: "Pro anual",
    price: 49900,
    billingInterval: "ANNUAL",
    allowedPaymentMethods: ["CREDIT_CARD", "PIX"]
  })
  const draft = await draftOption(api, setup, { title: "Rascunho" })
  pro = await createPlan(api, setup, [annual.id, draft.id, monthly.id], { name: "Pro", description: "Para quem vende" })
  basic = await createPlan(api, setup, [(await activePlanOption(api, setup.owner, setup.community)).id], {
    name: "Básico"
  })
})
const publicCall = (community = setup.community) => ({ community: community.id })

describe("POST /api/communities/plans", () => {
  it("creates a tier showing its plan and the plan's active billing options", async () => {
    const tier = expectCreated(
      await api.post("/api/communities/plans", {
        name: "Profissional",
        description: "O mais vendido",
        benefits: ["Todos os cursos", "Mentoria, \"ao vivo\""],
        highlight: true,
        subscriptionGroupId: pro.id
      }, setup.asOwner()),
      "Faixa de preço criada com sucesso."
    )
    expect(tier).toMatchObject({
      communityId: setup.community.id,
      subscriptionGroupId: pro.id,
      name: "Profissional",
      description: "O mais vendido",
      benefits: ["Todos os cursos", "Mentoria, \"ao vivo\""],
      highlight: true,
      plan: { id: pro.id, name: "Pro", description: "Para quem vende" }
    })
    expect(tier.options).toEqual([
      {
        productId: annual.id,
        title: "Pro anual",
        description: null,
        price: 49900,
        currency: "BRL",
        billingInterval: "ANNUAL",
        commitmentMonths: null,
        allowedPaymentMethods: ["CREDIT_CARD", "PIX"]
      },
      expect.objectContaining({ productId: monthly.id, price: 4990, billingInterval: "MONTHLY" })
    ])
  })

  it("refuses a plan that is not of this community (400, param subscriptionGroupId) and bad bodies", async () => {
    const foreign = await createPlan(api, other, [(await draftOption(api, other)).id])
    for (const subscriptionGroupId of [unknownId(), foreign.id]) {
      const reply = await api.post("/api/communities/plans", { name: "X", subscriptionGroupId }, setup.asOwner())
      expect(expectInvalid(reply, "subscriptionGroupId").message).toBe(PLAN_UNKNOWN)
    }
    const post = (body: unknown) => api.post("/api/communities/plans", body, setup.asOwner())
    expectInvalid(await post({ name: "X" }), "subscriptionGroupId")
    expectInvalid(await post({ name: "X", subscriptionGroupId: "plano" }), "subscriptionGroupId")
    expectInvalid(await post({ subscriptionGroupId: pro.id }), "name")
    expectInvalid(await post({ name: "X", subscriptionGroupId: pro.id, benefits: "tudo" }), "benefits")
    expectInvalid(await post({ name: "X", subscriptionGroupId: pro.id, benefits: [""] }), "benefits.0")
    expectInvalid(await post({ name: "X", subscriptionGroupId: pro.id, highlight: "yes" }), "highlight")
    expectInvalid(await post({ name: "X", subscriptionGroupId: pro.id, position: -1 }), "position")
    expectError(await api.call("POST", "/api/communities/plans", { ...setup.asOwner(), raw: "{" }), 400)
  })

  it("lets owner and admin create; finance, moderator and member get 403", async () => {
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.post(
        "/api/communities/plans",
        { name: "X", subscriptionGroupId: basic.id },
        as(setup.people[role], setup.community)
      )
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectError(
      await api.post("/api/communities/plans", { name: "X", subscriptionGroupId: basic.id }, publicCall()),
      401
    )
    expectCreated(
      await api.post(
        "/api/communities/plans",
        { name: "X", subscriptionGroupId: basic.id },
        as(setup.people.admin, setup.community)
      )
    )
  })
})

describe("GET /api/communities/plans (Public)", () => {
  it("lists the tiers in order to anyone, without a token, paginated", async () => {
    const shop = await catalogueCommunity(api, "Vitrine")
    await approveBusiness(api, shop.owner, shop.community)
    const made: Array<{ id: string }> = []
    for (const [name, position] of [["Ouro", 2], ["Prata", 1], ["Bronze", 0]] as const) {
      const option = await activePlanOption(api, shop.owner, shop.community, { title: name })
      const plan = await createPlan(api, shop, [option.id], { name })
      made.push(
        expectCreated(
          await api.post("/api/communities/plans", { name, position, subscriptionGroupId: plan.id }, shop.asOwner())
        )
      )
    }
    const first = await api.get("/api/communities/plans?limit=2", publicCall(shop.community))
    const page1 = expectOk(first, 200, "Faixas de preço encontradas.")
    expect(page1.map((t: { name: string }) => t.name)).toEqual(["Bronze", "Prata"])
    expect(page1.every((t: { options: ReadonlyArray<unknown> }) => t.options.length === 1)).toBe(true)
    const second = await api.get(`/api/communities/plans?limit=2&cursor=${first.body.pagination.nextCursor}`, {
      community: shop.community.id
    })
    expect(expectOk(second).map((t: { name: string }) => t.name)).toEqual(["Ouro"])
    // a member's token shows the same page
    expect(expectOk(await api.get("/api/communities/plans", as(shop.people.member, shop.community)))).toHaveLength(3)
    // another community's page does not show them
    const foreign = expectOk(await api.get("/api/communities/plans", publicCall(other.community)))
    expect(foreign.some((t: { id: string }) => made.some((m) => m.id === t.id))).toBe(false)
    expectInvalid(await api.get("/api/communities/plans"), "X-CommunityId", "headers")
    expectInvalid(await api.get("/api/communities/plans?limit=500", publicCall()), "limit", "query")
  })

  it("reads one tier without a token; 404 for another community's; 400 for a malformed id", async () => {
    const tier = expectCreated(
      await api.post("/api/communities/plans", { name: "Só leitura", subscriptionGroupId: basic.id }, setup.asOwner())
    )
    const data = expectOk(
      await api.get(`/api/communities/plans/${tier.id}`, publicCall()),
      200,
      "Faixa de preço encontrada."
    )
    expect(data).toMatchObject({ id: tier.id, plan: { id: basic.id, name: "Básico" }, benefits: [], highlight: false })
    expect(data.options).toHaveLength(1)
    expectError(await api.get(`/api/communities/plans/${tier.id}`, publicCall(other.community)), 404)
    expectError(
      await api.get(`/api/communities/plans/${unknownId()}`, publicCall()),
      404,
      "Faixa de preço não encontrada."
    )
    expectInvalid(await api.get("/api/communities/plans/abc", publicCall()), "id", "params")
  })

  it("hides billing options that are unpublished or removed from the plan", async () => {
    const option = await activePlanOption(api, setup.owner, setup.community, { title: "Efêmero" })
    const plan = await createPlan(api, setup, [option.id])
    const tier = expectCreated(
      await api.post("/api/communities/plans", { name: "Efêmero", subscriptionGroupId: plan.id }, setup.asOwner())
    )
    expect(expectOk(await api.get(`/api/communities/plans/${tier.id}`, publicCall())).options).toHaveLength(1)
    expectOk(await api.put(`/api/products/${option.id}`, { status: "DRAFT" }, setup.asOwner()))
    expect(expectOk(await api.get(`/api/communities/plans/${tier.id}`, publicCall())).options).toEqual([])
  })
})

describe("PUT and DELETE /api/communities/plans/{id}", () => {
  it("edits partially, may point at another plan, and removes", async () => {
    const tier = expectCreated(
      await api.post("/api/communities/plans", { name: "Editável", subscriptionGroupId: basic.id }, setup.asOwner())
    )
    const path = `/api/communities/plans/${tier.id}`
    const edited = expectOk(
      await api.put(
        path,
        { benefits: ["Suporte"], highlight: true, position: 7, subscriptionGroupId: pro.id },
        setup.asOwner()
      ),
      200,
      "Faixa de preço atualizada com sucesso."
    )
    expect(edited).toMatchObject({
      name: "Editável",
      benefits: ["Suporte"],
      highlight: true,
      position: 7,
      subscriptionGroupId: pro.id,
      plan: { name: "Pro" }
    })
    expect(edited.options).toHaveLength(2)
    expect(expectOk(await api.put(path, { description: null, name: "Novo" }, setup.asOwner()))).toMatchObject({
      name: "Novo",
      description: null
    })
    expect(
      expectInvalid(await api.put(path, { subscriptionGroupId: unknownId() }, setup.asOwner()), "subscriptionGroupId")
        .message
    ).toBe(PLAN_UNKNOWN)
    expectInvalid(await api.put(path, { name: "" }, setup.asOwner()), "name")
    expectError(await api.put(path, { name: "X" }, other.asOwner()), 404)
    expectInvalid(await api.put("/api/communities/plans/abc", { name: "X" }, setup.asOwner()), "id", "params")

    for (const role of ["finance", "moderator", "member"] as const) {
      const who = as(setup.people[role], setup.community)
      expectError(await api.put(path, { name: "X" }, who), 403, MANAGERS_ONLY(role))
      expectError(await api.del(path, who), 403, MANAGERS_ONLY(role))
    }
    expectError(await api.del(path, other.asOwner()), 404)
    expectOk(await api.del(path, as(setup.people.admin, setup.community)), 200, "Faixa de preço removida com sucesso.")
    expectError(await api.get(path, publicCall()), 404)
    expectError(await api.del(path, setup.asOwner()), 404)
  })
})

describe("community routes next to /api/communities/plans", () => {
  it("still answers /api/communities/my and /api/communities/{id}/members", async () => {
    const mine = expectOk(await api.get("/api/communities/my", { token: setup.owner.token }))
    expect(mine.some((c: { id: string }) => c.id === setup.community.id)).toBe(true)
    expectOk(await api.get(`/api/communities/${setup.community.id}/members`, setup.asOwner()))
    expectInvalid(await api.put("/api/communities/plans", { name: "X" }, setup.asOwner()), "id", "params")
  })
})
