import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSection, createSpace } from "../support/structure"
import {
  ADD_ON_IS_OPTION,
  ADD_ON_UNKNOWN,
  type CatalogueCommunity,
  catalogueCommunity,
  createPlan,
  draftOption,
  draftProduct,
  MANAGERS_ONLY,
  PRODUCT_NOT_FOUND,
  READERS_ONLY
} from "./catalogue-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CatalogueCommunity
let other: CatalogueCommunity
beforeAll(async () => {
  setup = await catalogueCommunity(api, "Planos")
  other = await catalogueCommunity(api, "Outra")
})
const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id)

describe("POST /api/subscription-groups", () => {
  it("creates a plan with billing options in order and add-ons", async () => {
    const monthly = await draftOption(api, setup)
    const annual = await draftOption(api, setup, { billingInterval: "ANNUAL", price: 49900 })
    const ebook = await draftOption(api, setup, { title: "E-book" })
    const data = expectCreated(
      await api.post("/api/subscription-groups", {
        name: " Pro ",
        description: "Tudo incluído",
        productIds: [annual.id, monthly.id.toUpperCase()],
        addOnProductIds: [ebook.id]
      }, setup.asOwner()),
      "Plano criado com sucesso."
    )
    expect(data).toMatchObject({
      communityId: setup.community.id,
      name: "Pro",
      description: "Tudo incluído",
      productIds: [annual.id, monthly.id],
      addOnProductIds: [ebook.id]
    })
    expect(data.position).toEqual(expect.any(Number))
  })

  it("refuses billing options that are not live SUBSCRIPTION products of the community: 400 Product not found", async () => {
    const oneTime = await draftProduct(api, setup)
    const removed = await draftOption(api, setup)
    expectOk(await api.del(`/api/products/${removed.id}`, setup.asOwner()))
    const foreign = await draftOption(api, other)
    for (const productId of [unknownId(), oneTime.id, removed.id, foreign.id]) {
      const reply = await api.post("/api/subscription-groups", { name: "X", productIds: [productId] }, setup.asOwner())
      expect(expectInvalid(reply, "productIds").message).toBe(PRODUCT_NOT_FOUND)
    }
  })

  it("refuses unknown, removed or foreign add-ons with the spec message", async () => {
    const option = await draftOption(api, setup)
    const removed = await draftProduct(api, setup)
    expectOk(await api.del(`/api/products/${removed.id}`, setup.asOwner()))
    const foreign = await draftProduct(api, other)
    for (const addOn of [unknownId(), removed.id, foreign.id]) {
      const reply = await api.post(
        "/api/subscription-groups",
        { name: "X", productIds: [option.id], addOnProductIds: [addOn] },
        setup.asOwner()
      )
      expect(expectInvalid(reply, "addOnProductIds").message).toBe(ADD_ON_UNKNOWN)
    }
  })

  it("keeps billing options and add-ons apart, across plans and within one", async () => {
    const optionA = await draftOption(api, setup)
    const addOnA = await draftOption(api, setup, { title: "Mentoria" })
    await createPlan(api, setup, [optionA.id], { addOnProductIds: [addOnA.id] })
    const optionB = await draftOption(api, setup)

    // another plan's billing option as add-on
    const asAddOn = await api.post(
      "/api/subscription-groups",
      { name: "B", productIds: [optionB.id], addOnProductIds: [optionA.id] },
      setup.asOwner()
    )
    expect(expectInvalid(asAddOn, "addOnProductIds").message).toBe(ADD_ON_IS_OPTION)
    // the same product as option and add-on of one plan
    const both = await api.post(
      "/api/subscription-groups",
      { name: "B", productIds: [optionB.id], addOnProductIds: [optionB.id] },
      setup.asOwner()
    )
    expect(expectInvalid(both, "addOnProductIds").message).toBe(ADD_ON_IS_OPTION)
    // symmetric: another plan's add-on as billing option
    const asOption = await api.post("/api/subscription-groups", { name: "B", productIds: [addOnA.id] }, setup.asOwner())
    expect(expectInvalid(asOption, "productIds").message).toBe(ADD_ON_IS_OPTION)
    // a billing option may be an option of several plans (the spec does not forbid it)
    const shared = await api.post("/api/subscription-groups", { name: "B", productIds: [optionA.id] }, setup.asOwner())
    expect(expectCreated(shared).productIds).toEqual([optionA.id])
    // an add-on may be the add-on of several plans
    expectCreated(
      await api.post(
        "/api/subscription-groups",
        { name: "B", productIds: [optionB.id], addOnProductIds: [addOnA.id] },
        setup.asOwner()
      )
    )
  })

  it("refuses malformed bodies with 400 and errors[].param", async () => {
    const option = await draftOption(api, setup)
    const post = (body: unknown) => api.post("/api/subscription-groups", body, setup.asOwner())
    expectInvalid(await post({ productIds: [option.id] }), "name")
    expectInvalid(await post({ name: "", productIds: [option.id] }), "name")
    expectInvalid(await post({ name: "X" }), "productIds")
    expectInvalid(await post({ name: "X", productIds: [] }), "productIds")
    expectInvalid(await post({ name: "X", productIds: ["abc"] }), "productIds.0")
    expectInvalid(await post({ name: "X", productIds: "abc" }), "productIds")
    expectInvalid(await post({ name: "X", productIds: [option.id, option.id] }), "productIds")
    expectInvalid(await post({ name: "X", productIds: [option.id], addOnProductIds: [1] }), "addOnProductIds.0")
    expectError(await api.call("POST", "/api/subscription-groups", { ...setup.asOwner(), raw: "nope" }), 400)
  })

  it("lets owner and admin create; finance, moderator and member get 403", async () => {
    const option = await draftOption(api, setup)
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.post(
        "/api/subscription-groups",
        { name: "X", productIds: [option.id] },
        as(setup.people[role], setup.community)
      )
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectCreated(
      await api.post(
        "/api/subscription-groups",
        { name: "X", productIds: [option.id] },
        as(setup.people.admin, setup.community)
      )
    )
  })
})

describe("reading plans", () => {
  let shop: CatalogueCommunity
  const plans: Array<{ id: string }> = []
  beforeAll(async () => {
    shop = await catalogueCommunity(api, "Leitura")
    for (const name of ["Básico", "Pro", "Max"]) {
      const option = await draftOption(api, shop, { title: name })
      plans.push(await createPlan(api, shop, [option.id], { name }))
    }
  })

  it("lists plans in order with keyset pagination; finance reads; moderator and member get 403", async () => {
    const first = await api.get("/api/subscription-groups?limit=2", shop.asOwner())
    const page1 = expectOk(first, 200, "Planos encontrados.")
    expect(page1.map((p: { name: string; position: number }) => [p.name, p.position])).toEqual([["Básico", 0], [
      "Pro",
      1
    ]])
    expect(page1[0].productIds).toHaveLength(1)
    const second = await api.get(`/api/subscription-groups?cursor=${first.body.pagination.nextCursor}`, shop.asOwner())
    expect(expectOk(second).map((p: { name: string }) => p.name)).toEqual(["Max"])
    expectOk(await api.get("/api/subscription-groups", as(shop.people.finance, shop.community)))
    for (const role of ["moderator", "member"] as const) {
      expectError(
        await api.get("/api/subscription-groups", as(shop.people[role], shop.community)),
        403,
        READERS_ONLY(role)
      )
    }
    expectInvalid(await api.get("/api/subscription-groups?cursor=zzz", shop.asOwner()), "cursor", "query")
  })

  it("reads one plan: 404 for another community's, 400 for a malformed id", async () => {
    const plan = expectOk(
      await api.get(`/api/subscription-groups/${plans[1]!.id}`, shop.asOwner()),
      200,
      "Plano encontrado."
    )
    expect(plan.name).toBe("Pro")
    expectOk(await api.get(`/api/subscription-groups/${plans[1]!.id}`, as(shop.people.finance, shop.community)))
    expectError(
      await api.get(`/api/subscription-groups/${plans[1]!.id}`, as(shop.people.member, shop.community)),
      403,
      READERS_ONLY("member")
    )
    expectError(
      await api.get(`/api/subscription-groups/${plans[1]!.id}`, other.asOwner()),
      404,
      "Plano não encontrado."
    )
    expectInvalid(await api.get("/api/subscription-groups/nope", shop.asOwner()), "id", "params")
  })

  it("lists a plan's products with every product field, options first", async () => {
    const monthly = await draftOption(api, shop, { title: "Mensal" })
    const annual = await draftOption(api, shop, { title: "Anual", billingInterval: "ANNUAL" })
    const extra = await draftOption(api, shop, { title: "Extra" })
    const plan = await createPlan(api, shop, [annual.id, monthly.id], { addOnProductIds: [extra.id] })
    const data = expectOk(
      await api.get(`/api/subscription-groups/${plan.id}/products`, shop.asOwner()),
      200,
      "Produtos do plano encontrados."
    )
    expect(data.map((p: { title: string; kind: string; position: number }) => [p.title, p.kind, p.position])).toEqual([
      ["Anual", "option", 0],
      ["Mensal", "option", 1],
      ["Extra", "add_on", 0]
    ])
    expect(data[0]).toMatchObject({ type: "SUBSCRIPTION", price: 4990, currency: "BRL", billingInterval: "ANNUAL" })
    expectOk(await api.get(`/api/subscription-groups/${plan.id}/products`, as(shop.people.finance, shop.community)))
    expectError(
      await api.get(`/api/subscription-groups/${plan.id}/products`, as(shop.people.moderator, shop.community)),
      403,
      READERS_ONLY("moderator")
    )
    expectError(await api.get(`/api/subscription-groups/${plan.id}/products`, other.asOwner()), 404)
    expectInvalid(await api.get("/api/subscription-groups/1/products", shop.asOwner()), "id", "params")
  })
})

describe("PUT /api/subscription-groups/{id}", () => {
  it("renames and replaces the lists, keeping its own options valid", async () => {
    const monthly = await draftOption(api, setup)
    const annual = await draftOption(api, setup, { billingInterval: "ANNUAL" })
    const extra = await draftOption(api, setup, { title: "Extra" })
    const plan = await createPlan(api, setup, [monthly.id])
    const path = `/api/subscription-groups/${plan.id}`
    const renamed = expectOk(
      await api.put(path, { name: "Premium", productIds: [monthly.id] }, setup.asOwner()),
      200,
      "Plano atualizado com sucesso."
    )
    expect(renamed).toMatchObject({ name: "Premium", productIds: [monthly.id], addOnProductIds: [] })
    const replaced = expectOk(
      await api.put(path, { productIds: [annual.id, monthly.id], addOnProductIds: [extra.id] }, setup.asOwner())
    )
    expect(replaced).toMatchObject({
      name: "Premium",
      productIds: [annual.id, monthly.id],
      addOnProductIds: [extra.id]
    })
    expect(expectOk(await api.put(path, { description: "Novo" }, setup.asOwner()))).toMatchObject({
      description: "Novo",
      productIds: [annual.id, monthly.id],
      addOnProductIds: [extra.id]
    })
    expect(expectOk(await api.put(path, { addOnProductIds: [] }, setup.asOwner())).addOnProductIds).toEqual([])
  })

  it("applies the plan messages on edit too", async () => {
    const option = await draftOption(api, setup)
    const otherOption = await draftOption(api, setup)
    await createPlan(api, setup, [otherOption.id])
    const plan = await createPlan(api, setup, [option.id])
    const path = `/api/subscription-groups/${plan.id}`
    expect(expectInvalid(await api.put(path, { productIds: [unknownId()] }, setup.asOwner()), "productIds").message)
      .toBe(PRODUCT_NOT_FOUND)
    expect(
      expectInvalid(await api.put(path, { addOnProductIds: [unknownId()] }, setup.asOwner()), "addOnProductIds").message
    )
      .toBe(ADD_ON_UNKNOWN)
    expect(
      expectInvalid(await api.put(path, { addOnProductIds: [otherOption.id] }, setup.asOwner()), "addOnProductIds")
        .message
    ).toBe(ADD_ON_IS_OPTION)
    expect(
      expectInvalid(await api.put(path, { addOnProductIds: [option.id] }, setup.asOwner()), "addOnProductIds").message
    )
      .toBe(ADD_ON_IS_OPTION)
    expectInvalid(await api.put(path, { productIds: [] }, setup.asOwner()), "productIds")
    expectInvalid(await api.put(path, { name: "" }, setup.asOwner()), "name")
  })

  it("applies the role rules, 404 for another community, 400 for a malformed id", async () => {
    const plan = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.put(
        `/api/subscription-groups/${plan.id}`,
        { name: "X" },
        as(setup.people[role], setup.community)
      )
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectOk(
      await api.put(`/api/subscription-groups/${plan.id}`, { name: "Y" }, as(setup.people.admin, setup.community))
    )
    expectError(await api.put(`/api/subscription-groups/${plan.id}`, { name: "X" }, other.asOwner()), 404)
    expectInvalid(await api.put("/api/subscription-groups/abc", { name: "X" }, setup.asOwner()), "id", "params")
  })
})

describe("PATCH /api/subscription-groups/reorder", () => {
  it("puts every plan in the given order with positions 0..n-1", async () => {
    const shop = await catalogueCommunity(api, "Ordem")
    const plans: Array<{ id: string }> = []
    for (const name of ["A", "B", "C"]) {
      plans.push(await createPlan(api, shop, [(await draftOption(api, shop)).id], { name }))
    }
    const order = [plans[2]!.id, plans[0]!.id, plans[1]!.id]
    const data = expectOk(
      await api.patch("/api/subscription-groups/reorder", { ids: order }, shop.asOwner()),
      200,
      "Planos reordenados com sucesso."
    )
    expect(data.map((p: { id: string; position: number }) => [p.id, p.position])).toEqual([
      [order[0], 0],
      [order[1], 1],
      [order[2], 2]
    ])
    expect(ids(expectOk(await api.get("/api/subscription-groups", shop.asOwner())))).toEqual(order)

    // removing a plan closes the gap
    expectOk(await api.del(`/api/subscription-groups/${order[1]}`, shop.asOwner()))
    const after = expectOk(await api.get("/api/subscription-groups", shop.asOwner()))
    expect(after.map((p: { id: string; position: number }) => [p.id, p.position])).toEqual([[order[0], 0], [
      order[2],
      1
    ]])
    // a new plan goes last
    const last = await createPlan(api, shop, [(await draftOption(api, shop)).id])
    expect(last.position).toBe(2)
  })

  it("refuses lists that are not exactly the community's plans (param ids)", async () => {
    const shop = await catalogueCommunity(api, "Ordem")
    const a = await createPlan(api, shop, [(await draftOption(api, shop)).id])
    const b = await createPlan(api, shop, [(await draftOption(api, shop)).id])
    const foreign = await createPlan(api, other, [(await draftOption(api, other)).id])
    const reorder = (body: unknown, options = shop.asOwner()) =>
      api.patch("/api/subscription-groups/reorder", body, options)
    expectInvalid(await reorder({ ids: [a.id] }), "ids")
    expectInvalid(await reorder({ ids: [a.id, b.id, foreign.id] }), "ids")
    expectInvalid(await reorder({ ids: [a.id, foreign.id] }), "ids")
    expectInvalid(await reorder({ ids: [a.id, a.id] }), "ids")
    expectInvalid(await reorder({ ids: [a.id, "x"] }), "ids.1")
    expectInvalid(await reorder({}), "ids")
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(await reorder({ ids: [b.id, a.id] }, as(shop.people[role], shop.community)), 403, MANAGERS_ONLY(role))
    }
    expectOk(await reorder({ ids: [b.id, a.id] }, as(shop.people.admin, shop.community)))
    // the static path never reaches the {id} routes
    expectInvalid(await api.get("/api/subscription-groups/reorder", shop.asOwner()), "id", "params")
  })
})

describe("DELETE /api/subscription-groups/{id}", () => {
  it("removes the plan; its products stay and may join another plan", async () => {
    const option = await draftOption(api, setup)
    const plan = await createPlan(api, setup, [option.id])
    expectOk(await api.del(`/api/subscription-groups/${plan.id}`, setup.asOwner()), 200, "Plano removido com sucesso.")
    expectError(await api.get(`/api/subscription-groups/${plan.id}`, setup.asOwner()), 404)
    expectError(await api.del(`/api/subscription-groups/${plan.id}`, setup.asOwner()), 404)
    expectOk(await api.get(`/api/products/${option.id}`, setup.asOwner()))
    await createPlan(api, setup, [option.id])
  })

  it("refuses 409 while a space's access or a pricing tier uses the plan", async () => {
    const plan = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    const section = await createSection(api, setup)
    const space = await createSpace(api, setup, section.id, { access: { subscriptionGroupIds: [plan.id] } })
    expectError(await api.del(`/api/subscription-groups/${plan.id}`, setup.asOwner()), 409)
    expectOk(await api.put(`/api/spaces/${space.id}`, { access: { subscriptionGroupIds: [] } }, setup.asOwner()))

    const tier = expectCreated(
      await api.post("/api/communities/plans", { name: "Ouro", subscriptionGroupId: plan.id }, setup.asOwner())
    )
    expectError(await api.del(`/api/subscription-groups/${plan.id}`, setup.asOwner()), 409)
    expectOk(await api.del(`/api/communities/plans/${tier.id}`, setup.asOwner()))
    expectOk(await api.del(`/api/subscription-groups/${plan.id}`, setup.asOwner()))
  })

  it("applies the role rules, 404 for another community, 400 for a malformed id", async () => {
    const plan = await createPlan(api, setup, [(await draftOption(api, setup)).id])
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.del(`/api/subscription-groups/${plan.id}`, as(setup.people[role], setup.community))
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectError(await api.del(`/api/subscription-groups/${plan.id}`, other.asOwner()), 404)
    expectInvalid(await api.del("/api/subscription-groups/abc", setup.asOwner()), "id", "params")
    expectOk(await api.del(`/api/subscription-groups/${plan.id}`, as(setup.people.admin, setup.community)))
  })
})

describe("plans under concurrency", () => {
  it("gives concurrent plans distinct gap-free positions and never makes one product both option and add-on", async () => {
    const shop = await catalogueCommunity(api, "Corrida")
    const options = await Promise.all(Array.from({ length: 8 }, () => draftOption(api, shop)))
    const created = await Promise.all(
      options.map((option, index) =>
        api.post("/api/subscription-groups", { name: `P${index}`, productIds: [option.id] }, shop.asOwner())
      )
    )
    const positions = created.map((reply) => expectCreated(reply).position).sort((a: number, b: number) => a - b)
    expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7])

    // half try to make one product a billing option, half an add-on: never both
    const contested = await draftOption(api, shop)
    const fresh = await Promise.all(Array.from({ length: 4 }, () => draftOption(api, shop)))
    const asOption = Array.from(
      { length: 4 },
      (_, index) =>
        api.post("/api/subscription-groups", { name: `O${index}`, productIds: [contested.id] }, shop.asOwner())
    )
    const asAddOn = fresh.map((option, index) =>
      api.post(
        "/api/subscription-groups",
        { name: `A${index}`, productIds: [option.id], addOnProductIds: [contested.id] },
        shop.asOwner()
      )
    )
    const [optionReplies, addOnReplies] = await Promise.all([Promise.all(asOption), Promise.all(asAddOn)])
    const won = (replies: ReadonlyArray<{ status: number }>) => replies.filter((reply) => reply.status === 201).length
    expect([...optionReplies, ...addOnReplies].every((reply) => reply.status === 201 || reply.status === 400)).toBe(
      true
    )
    expect(won(optionReplies) > 0 && won(addOnReplies) > 0).toBe(false)
    expect(won(optionReplies) + won(addOnReplies)).toBeGreaterThan(0)
  })
})
