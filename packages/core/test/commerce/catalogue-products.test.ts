import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { approveBusiness, businessInformation } from "../support/selling"
import { createSection, createSpace } from "../support/structure"
import {
  ADD_ON_UNKNOWN,
  type CatalogueCommunity,
  catalogueCommunity,
  createPlan,
  CURRENCY_MISMATCH,
  draftOption,
  draftProduct,
  MANAGERS_ONLY,
  PRODUCT_NOT_FOUND,
  PUBLISH_NEEDS_BUSINESS,
  READERS_ONLY
} from "./catalogue-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CatalogueCommunity
let selling: CatalogueCommunity
let other: CatalogueCommunity
beforeAll(async () => {
  setup = await catalogueCommunity(api)
  selling = await catalogueCommunity(api, "Loja")
  other = await catalogueCommunity(api, "Outra")
  await approveBusiness(api, selling.owner, selling.community, "BR")
})

describe("POST /api/products", () => {
  it("creates a ONE_TIME product in DRAFT with the defaults", async () => {
    const data = expectCreated(
      await api.post("/api/products", { type: "ONE_TIME", title: " Ingresso ", price: 10000 }, setup.asOwner()),
      "Produto criado com sucesso."
    )
    expect(data).toMatchObject({
      communityId: setup.community.id,
      type: "ONE_TIME",
      title: "Ingresso",
      description: null,
      price: 10000,
      currency: "BRL",
      billingInterval: null,
      commitmentMonths: null,
      allowedPaymentMethods: ["CREDIT_CARD", "PIX", "BOLETO"],
      hasStock: false,
      stockQuantity: null,
      status: "DRAFT",
      publishedAt: null
    })
  })

  it("creates a SUBSCRIPTION with interval and commitment, and a ONE_TIME with stock", async () => {
    const subscription = await draftOption(api, setup, {
      billingInterval: "QUARTERLY",
      commitmentMonths: 12,
      allowedPaymentMethods: ["CREDIT_CARD"],
      description: "Acesso trimestral"
    })
    expect(subscription).toMatchObject({
      type: "SUBSCRIPTION",
      billingInterval: "QUARTERLY",
      commitmentMonths: 12,
      allowedPaymentMethods: ["CREDIT_CARD"],
      description: "Acesso trimestral",
      status: "DRAFT"
    })
    const ticket = await draftProduct(api, setup, { hasStock: true, stockQuantity: 10, currency: "USD" })
    expect(ticket).toMatchObject({ hasStock: true, stockQuantity: 10, currency: "USD" })
    for (const interval of ["MONTHLY", "SEMIANNUAL", "ANNUAL"]) {
      expect((await draftOption(api, setup, { billingInterval: interval })).billingInterval).toBe(interval)
    }
  })

  it("takes the currency of the business-information country as the default, approved or not", async () => {
    const fresh = await catalogueCommunity(api, "Dólar")
    expectOk(await api.post("/api/business-information", businessInformation("US"), fresh.asOwner()))
    expect((await draftProduct(api, fresh)).currency).toBe("USD")
    expect((await draftProduct(api, fresh, { currency: "BRL" })).currency).toBe("BRL")
  })

  it("refuses type-specific fields on the wrong type, with the param named", async () => {
    const post = (body: Record<string, unknown>) => api.post("/api/products", body, setup.asOwner())
    const subscription = { type: "SUBSCRIPTION", title: "Mensal", price: 4990 }
    const oneTime = { type: "ONE_TIME", title: "Ingresso", price: 100 }
    expect(expectInvalid(await post(subscription), "billingInterval").message).toBe(
      "billingInterval é obrigatório para produtos SUBSCRIPTION."
    )
    expectInvalid(await post({ ...subscription, billingInterval: null }), "billingInterval")
    expectInvalid(await post({ ...oneTime, billingInterval: "MONTHLY" }), "billingInterval")
    expectInvalid(await post({ ...oneTime, commitmentMonths: 12 }), "commitmentMonths")
    expectInvalid(
      await post({ ...subscription, billingInterval: "QUARTERLY", commitmentMonths: 5 }),
      "commitmentMonths"
    )
    expectInvalid(await post({ ...subscription, billingInterval: "MONTHLY", hasStock: true }), "hasStock")
    expectInvalid(await post({ ...subscription, billingInterval: "MONTHLY", stockQuantity: 3 }), "stockQuantity")
    expectInvalid(await post({ ...oneTime, hasStock: true }), "stockQuantity")
    expectInvalid(await post({ ...oneTime, stockQuantity: 3 }), "stockQuantity")
    expectInvalid(await post({ ...oneTime, hasStock: false, stockQuantity: 3 }), "stockQuantity")
    const english = await api.post("/api/products", { ...oneTime, hasStock: true }, {
      ...setup.asOwner(),
      headers: { "accept-language": "en" }
    })
    expect(expectInvalid(english, "stockQuantity").message).toBe("stockQuantity is required when hasStock is true.")
  })

  it("refuses malformed bodies with 400 and errors[].param", async () => {
    const post = (body: unknown) => api.post("/api/products", body, setup.asOwner())
    const base = { type: "ONE_TIME", title: "Ingresso", price: 100 }
    expectInvalid(await post({ title: "X", price: 100 }), "type")
    expectInvalid(await post({ ...base, type: "DONATION" }), "type")
    expectInvalid(await post({ ...base, title: "  " }), "title")
    expectInvalid(await post({ ...base, price: 10.5 }), "price")
    expectInvalid(await post({ ...base, price: -1 }), "price")
    expectInvalid(await post({ ...base, price: 0 }), "price")
    expectInvalid(await post({ ...base, price: "100" }), "price")
    expectInvalid(await post({ ...base, price: 1e12 }), "price")
    expectInvalid(await post({ ...base, currency: "brl" }), "currency")
    expectInvalid(await post({ ...base, currency: "XYZ" }), "currency")
    expectInvalid(await post({ ...base, allowedPaymentMethods: [] }), "allowedPaymentMethods")
    expectInvalid(await post({ ...base, allowedPaymentMethods: ["PIX", "PIX"] }), "allowedPaymentMethods")
    // The element at fault is named (nested paths are reported down to the bad value).
    expectInvalid(await post({ ...base, allowedPaymentMethods: ["CASH"] }), "allowedPaymentMethods.0")
    expectInvalid(await post({ ...base, hasStock: true, stockQuantity: -2 }), "stockQuantity")
    expectInvalid(await post({ ...base, type: "SUBSCRIPTION", billingInterval: "WEEKLY" }), "billingInterval")
    expectError(await api.post("/api/products", undefined, { ...setup.asOwner(), headers: {} }), 400)
    expectError(
      await api.call("POST", "/api/products", { ...setup.asOwner(), raw: "{not json" }),
      400
    )
  })

  it("lets owner and admin create; finance, moderator and member get 403", async () => {
    const body = { type: "ONE_TIME", title: "Ingresso", price: 100 }
    expectCreated(await api.post("/api/products", body, as(setup.people.admin, setup.community)))
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.post("/api/products", body, as(setup.people[role], setup.community))
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectError(await api.post("/api/products", body, { community: setup.community.id }), 401)
    expectInvalid(await api.post("/api/products", body, { token: setup.owner.token }), "X-CommunityId", "headers")
    expectError(await api.post("/api/products", body, as(setup.owner, other.community)), 403)
  })
})

describe("GET /api/products", () => {
  let shop: CatalogueCommunity
  const made: Array<string> = []
  beforeAll(async () => {
    shop = await catalogueCommunity(api, "Vitrine")
    made.push((await draftProduct(api, shop)).id)
    made.push((await draftOption(api, shop)).id)
    made.push((await draftProduct(api, shop, { title: "Camiseta" })).id)
  })

  it("lists newest first with keyset pagination", async () => {
    const first = await api.get("/api/products?limit=2", shop.asOwner())
    const page1 = expectOk(first, 200, "Produtos encontrados.")
    expect(page1.map((p: { id: string }) => p.id)).toEqual([made[2], made[1]])
    expect(first.body.pagination.nextCursor).toEqual(expect.any(String))
    const second = await api.get(`/api/products?limit=2&cursor=${first.body.pagination.nextCursor}`, shop.asOwner())
    expect(expectOk(second).map((p: { id: string }) => p.id)).toEqual([made[0]])
    expect(second.body.pagination.nextCursor).toBeNull()
  })

  it("filters by type and status, never shows another community's products", async () => {
    const subscriptions = expectOk(await api.get("/api/products?type=SUBSCRIPTION", shop.asOwner()))
    expect(subscriptions.map((p: { id: string }) => p.id)).toEqual([made[1]])
    expect(expectOk(await api.get("/api/products?status=ACTIVE", shop.asOwner()))).toEqual([])
    expect(expectOk(await api.get("/api/products?status=DRAFT", shop.asOwner()))).toHaveLength(3)
    const mine = expectOk(await api.get("/api/products?limit=100", other.asOwner()))
    expect(mine.some((p: { id: string }) => made.includes(p.id))).toBe(false)
  })

  it("refuses bad query parameters with 400", async () => {
    expectInvalid(await api.get("/api/products?limit=0", shop.asOwner()), "limit", "query")
    expectInvalid(await api.get("/api/products?limit=abc", shop.asOwner()), "limit", "query")
    expectInvalid(await api.get("/api/products?cursor=nonsense", shop.asOwner()), "cursor", "query")
    expectInvalid(await api.get("/api/products?type=OTHER", shop.asOwner()), "type", "query")
    expectInvalid(await api.get("/api/products?status=archived", shop.asOwner()), "status", "query")
  })

  it("is read by owner, admin and finance; moderator and member get 403", async () => {
    for (const role of ["admin", "finance"] as const) {
      expect(expectOk(await api.get("/api/products", as(shop.people[role], shop.community)))).toHaveLength(3)
    }
    for (const role of ["moderator", "member"] as const) {
      expectError(await api.get("/api/products", as(shop.people[role], shop.community)), 403, READERS_ONLY(role))
    }
  })
})

describe("GET /api/products/{id}", () => {
  it("shows a draft to owner, admin and finance only; an active product to anyone", async () => {
    const product = await draftProduct(api, selling)
    const path = `/api/products/${product.id}`
    expect(expectOk(await api.get(path, selling.asOwner()), 200, "Produto encontrado.").status).toBe("DRAFT")
    expectOk(await api.get(path, as(selling.people.finance, selling.community)))
    expectOk(await api.get(path, as(selling.people.admin, selling.community)))
    expectError(await api.get(path, as(selling.people.member, selling.community)), 404, PRODUCT_NOT_FOUND)
    expectError(await api.get(path, { community: selling.community.id }), 404)
    expectOk(await api.post(`${path}/publish`, {}, selling.asOwner()))
    expect(expectOk(await api.get(path, { community: selling.community.id })).status).toBe("ACTIVE")
    expectOk(await api.get(path, as(selling.people.member, selling.community)))
  })

  it("answers 404 for another community's product and 400 for a malformed id", async () => {
    const product = await draftProduct(api, setup)
    expectError(await api.get(`/api/products/${product.id}`, other.asOwner()), 404)
    expectError(await api.get(`/api/products/${unknownId()}`, setup.asOwner()), 404)
    expectInvalid(await api.get("/api/products/not-an-id", setup.asOwner()), "id", "params")
  })
})

describe("POST /api/products/{id}/publish", () => {
  it("publishes a draft in the approved currency: ACTIVE with publishedAt", async () => {
    const product = await draftProduct(api, selling)
    const data = expectOk(
      await api.post(`/api/products/${product.id}/publish`, {}, selling.asOwner()),
      200,
      "Produto publicado com sucesso."
    )
    expect(data).toMatchObject({ id: product.id, status: "ACTIVE", currency: "BRL" })
    expect(data.publishedAt).toEqual(expect.any(String))
  })

  it("refuses without approved business information: 403 with the spec message", async () => {
    const product = await draftProduct(api, setup)
    expectError(await api.post(`/api/products/${product.id}/publish`, {}, setup.asOwner()), 403, PUBLISH_NEEDS_BUSINESS)
    // submitted but still under review is not approved
    const pending = await catalogueCommunity(api, "Pendente")
    expectOk(await api.post("/api/business-information", businessInformation("BR"), pending.asOwner()))
    expectOk(await api.post("/api/business-information/submit", {}, pending.asOwner()))
    const waiting = await draftProduct(api, pending)
    expectError(
      await api.post(`/api/products/${waiting.id}/publish`, {}, pending.asOwner()),
      403,
      PUBLISH_NEEDS_BUSINESS
    )
  })

  it("refuses a product priced in another currency: 400 with param currency", async () => {
    const product = await draftProduct(api, selling, { currency: "USD" })
    const body = expectInvalid(await api.post(`/api/products/${product.id}/publish`, {}, selling.asOwner()), "currency")
    expect(body.message).toBe(CURRENCY_MISMATCH("USD", "BRL"))
    expect(body.errors[0]).toMatchObject({ param: "currency", msg: CURRENCY_MISMATCH("USD", "BRL") })
  })

  it("answers 409 (param status) when the product is already active", async () => {
    const product = await draftProduct(api, selling)
    expectOk(await api.post(`/api/products/${product.id}/publish`, {}, selling.asOwner()))
    const body = expectError(await api.post(`/api/products/${product.id}/publish`, {}, selling.asOwner()), 409)
    expect(body.errors[0].param).toBe("status")
    expect(body.message).toBe(
      "Não é possível mudar o status do produto de ACTIVE para ACTIVE. Movimentos permitidos: DRAFT."
    )
  })

  it("applies the role rules, 404 for another community, 400 for a malformed id", async () => {
    const product = await draftProduct(api, selling)
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.post(
        `/api/products/${product.id}/publish`,
        {},
        as(selling.people[role], selling.community)
      )
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectError(await api.post(`/api/products/${product.id}/publish`, {}, other.asOwner()), 404)
    expectInvalid(await api.post("/api/products/123/publish", {}, selling.asOwner()), "id", "params")
    expectOk(await api.post(`/api/products/${product.id}/publish`, {}, as(selling.people.admin, selling.community)))
  })
})

describe("PUT /api/products/{id}", () => {
  it("edits partially and keeps the rules of creation", async () => {
    const product = await draftProduct(api, setup, { description: "Pista" })
    const path = `/api/products/${product.id}`
    const edited = expectOk(
      await api.put(path, { title: "Ingresso VIP", price: 25000, description: null }, setup.asOwner()),
      200,
      "Produto atualizado com sucesso."
    )
    expect(edited).toMatchObject({ title: "Ingresso VIP", price: 25000, description: null, status: "DRAFT" })
    expect(expectOk(await api.put(path, { hasStock: true, stockQuantity: 5 }, setup.asOwner()))).toMatchObject({
      hasStock: true,
      stockQuantity: 5
    })
    expect(expectOk(await api.put(path, { hasStock: false }, setup.asOwner()))).toMatchObject({
      hasStock: false,
      stockQuantity: null
    })
    expectInvalid(await api.put(path, { hasStock: true }, setup.asOwner()), "stockQuantity")
    expectInvalid(await api.put(path, { billingInterval: "MONTHLY" }, setup.asOwner()), "billingInterval")
    expectInvalid(await api.put(path, { type: "SUBSCRIPTION" }, setup.asOwner()), "type")
    expectOk(await api.put(path, { type: "ONE_TIME" }, setup.asOwner()))
    expectInvalid(await api.put(path, { price: -5 }, setup.asOwner()), "price")
    expectInvalid(await api.put(path, { status: "ARCHIVED" }, setup.asOwner()), "status")
    const option = await draftOption(api, setup)
    expectInvalid(
      await api.put(`/api/products/${option.id}`, { billingInterval: null }, setup.asOwner()),
      "billingInterval"
    )
  })

  it("status=ACTIVE publishes with the same checks as publish", async () => {
    const unapproved = await draftProduct(api, setup)
    expectError(
      await api.put(`/api/products/${unapproved.id}`, { status: "ACTIVE" }, setup.asOwner()),
      403,
      PUBLISH_NEEDS_BUSINESS
    )
    const dollars = await draftProduct(api, selling, { currency: "USD" })
    const body = expectInvalid(
      await api.put(`/api/products/${dollars.id}`, { status: "ACTIVE" }, selling.asOwner()),
      "currency"
    )
    expect(body.message).toBe(CURRENCY_MISMATCH("USD", "BRL"))
    // fixing the currency in the same edit publishes
    const published = expectOk(
      await api.put(
        `/api/products/${dollars.id}`,
        { status: "ACTIVE", currency: "BRL", price: 5000 },
        selling.asOwner()
      )
    )
    expect(published).toMatchObject({ status: "ACTIVE", currency: "BRL", price: 5000 })
    expect(published.publishedAt).toEqual(expect.any(String))
  })

  it("keeps an active product editable, re-checks a currency change, and unpublishes with status=DRAFT", async () => {
    const product = await draftProduct(api, selling)
    const path = `/api/products/${product.id}`
    expectOk(await api.post(`${path}/publish`, {}, selling.asOwner()))
    expect(expectOk(await api.put(path, { price: 12000, status: "ACTIVE" }, selling.asOwner()))).toMatchObject({
      price: 12000,
      status: "ACTIVE"
    })
    const mismatch = expectInvalid(await api.put(path, { currency: "EUR" }, selling.asOwner()), "currency")
    expect(mismatch.message).toBe(CURRENCY_MISMATCH("EUR", "BRL"))
    const draft = expectOk(await api.put(path, { status: "DRAFT" }, selling.asOwner()))
    expect(draft).toMatchObject({ status: "DRAFT", publishedAt: null })
    expectOk(await api.put(path, { currency: "EUR" }, selling.asOwner()))
    expect(expectOk(await api.put(path, { currency: "BRL", status: "ACTIVE" }, selling.asOwner())).status).toBe(
      "ACTIVE"
    )
  })

  it("applies the role rules, 404 for another community, 400 for a malformed id", async () => {
    const product = await draftProduct(api, setup)
    for (const role of ["finance", "moderator", "member"] as const) {
      const reply = await api.put(
        `/api/products/${product.id}`,
        { title: "X" },
        as(setup.people[role], setup.community)
      )
      expectError(reply, 403, MANAGERS_ONLY(role))
    }
    expectOk(await api.put(`/api/products/${product.id}`, { title: "Y" }, as(setup.people.admin, setup.community)))
    expectError(await api.put(`/api/products/${product.id}`, { title: "X" }, other.asOwner()), 404)
    expectInvalid(await api.put("/api/products/xyz", { title: "X" }, setup.asOwner()), "id", "params")
    expectError(await api.call("PUT", `/api/products/${product.id}`, { ...setup.asOwner(), raw: "[" }), 400)
  })
})

describe("DELETE /api/products/{id}", () => {
  it("soft-deletes: gone from detail and list, a second delete is 404", async () => {
    const product = await draftProduct(api, setup)
    expectOk(await api.del(`/api/products/${product.id}`, setup.asOwner()), 200, "Produto removido com sucesso.")
    expectError(await api.get(`/api/products/${product.id}`, setup.asOwner()), 404)
    const list = expectOk(await api.get("/api/products?limit=100", setup.asOwner()))
    expect(list.some((p: { id: string }) => p.id === product.id)).toBe(false)
    expectError(await api.del(`/api/products/${product.id}`, setup.asOwner()), 404)
    expectError(await api.put(`/api/products/${product.id}`, { title: "X" }, setup.asOwner()), 404)
  })

  it("refuses 409 while the product is a plan's billing option or a space's grant; drops it from add-ons", async () => {
    const option = await draftOption(api, setup)
    const addOn = await draftOption(api, setup, { title: "Mentoria" })
    const plan = await createPlan(api, setup, [option.id], { addOnProductIds: [addOn.id] })
    expectError(await api.del(`/api/products/${option.id}`, setup.asOwner()), 409)

    expectOk(await api.del(`/api/products/${addOn.id}`, setup.asOwner()))
    const after = expectOk(await api.get(`/api/subscription-groups/${plan.id}`, setup.asOwner()))
    expect(after.addOnProductIds).toEqual([])

    const granted = await draftProduct(api, setup)
    const section = await createSection(api, setup)
    const space = await createSpace(api, setup, section.id, {
      access: { productIds: [granted.id] }
    })
    expectError(await api.del(`/api/products/${granted.id}`, setup.asOwner()), 409)
    expectOk(await api.put(`/api/spaces/${space.id}`, { access: { productIds: [] } }, setup.asOwner()))
    expectOk(await api.del(`/api/products/${granted.id}`, setup.asOwner()))
    // a removed product can be neither an option nor an add-on any more
    const replaced = await api.put(
      `/api/subscription-groups/${plan.id}`,
      { addOnProductIds: [granted.id] },
      setup.asOwner()
    )
    expectError(replaced, 400, ADD_ON_UNKNOWN)
  })

  it("applies the role rules, 404 for another community, 400 for a malformed id", async () => {
    const product = await draftProduct(api, setup)
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(
        await api.del(`/api/products/${product.id}`, as(setup.people[role], setup.community)),
        403,
        MANAGERS_ONLY(role)
      )
    }
    expectError(await api.del(`/api/products/${product.id}`, other.asOwner()), 404)
    expectInvalid(await api.del("/api/products/1", setup.asOwner()), "id", "params")
    expectOk(await api.del(`/api/products/${product.id}`, as(setup.people.admin, setup.community)))
  })
})
