import { afterAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { activeProduct } from "../support/selling"
import { buyer, cardCheckout, shop } from "./checkout-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const buy = async (scoped: { token: string; community: string }, productId: string) =>
  expectOk(await api.post("/api/checkout", cardCheckout(productId, { buyer: undefined }), scoped), 201)

describe("GET /api/purchases/me", () => {
  it("lists the caller's own purchases, newest first, a page at a time", async () => {
    const made = await shop(api)
    const second = await activeProduct(api, made.owner, made.community, { title: "Camiseta", price: 5000 })
    const member = await made.addMember("member")
    const scoped = as(member, made.community)
    const bought = [
      await buy(scoped, made.product.id),
      await buy(scoped, second.id),
      await buy(scoped, made.product.id)
    ]
    const first = await api.get("/api/purchases/me?limit=2", scoped)
    const page1 = expectOk(first)
    expect(page1.map((p: { id: string }) => p.id)).toEqual([bought[2].purchaseId, bought[1].purchaseId])
    expect(page1[1]).toMatchObject({
      productId: second.id,
      title: "Camiseta",
      chargeId: bought[1].chargeId,
      paymentMethod: "CREDIT_CARD",
      installments: 1,
      currency: "BRL",
      amount: 5000,
      discount: 0,
      total: 5000
    })
    expect(first.body.pagination.nextCursor).toEqual(expect.any(String))
    const next = await api.get(`/api/purchases/me?limit=2&cursor=${first.body.pagination.nextCursor}`, scoped)
    expect(expectOk(next).map((p: { id: string }) => p.id)).toEqual([bought[0].purchaseId])
    expect(next.body.pagination).toEqual({ limit: 2, nextCursor: null })
  })

  it("shows nobody else's purchases, nor another community's, nor unpaid charges", async () => {
    const made = await shop(api)
    const other = await shop(api)
    const member = await made.addMember("member")
    const colleague = await made.addMember("member")
    await buy(as(member, made.community), made.product.id)
    expect(expectOk(await api.get("/api/purchases/me", as(colleague, made.community)))).toEqual([])
    expect(expectOk(await api.get("/api/purchases/me", made.scoped))).toEqual([])
    expect(expectOk(await api.get("/api/purchases/me", as(member, made.community)))).toHaveLength(1)
    // the same account buys in another community: each community lists its own
    const elsewhere = await buy(as(member, other.community), other.product.id)
    // buying there made an invitation (an existing account is never made a member silently)
    expectOk(await api.post(`/api/profiles/${elsewhere.profileId}/accept`, undefined, as(member, other.community)))
    const there = expectOk(await api.get("/api/purchases/me", as(member, other.community)))
    expect(there.map((p: { id: string }) => p.id)).toEqual([elsewhere.purchaseId])
    // a pending PIX is no purchase until it is paid
    const pix = expectOk(
      await api.post(
        "/api/checkout",
        { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() },
        as(colleague, made.community)
      ),
      201
    )
    expect(expectOk(await api.get("/api/purchases/me", as(colleague, made.community)))).toEqual([])
    expectOk(await api.post(`/api/checkout/sandbox/${pix.chargeId}/pay`, {}, as(colleague, made.community)))
    expect(expectOk(await api.get("/api/purchases/me", as(colleague, made.community)))).toHaveLength(1)
  })

  it("needs a signed-in member and validates paging", async () => {
    const made = await shop(api)
    expectError(await api.get("/api/purchases/me", { community: made.community.id }), 401)
    const stranger = await register(api)
    expectError(await api.get("/api/purchases/me", as(stranger, made.community)), 403, NOT_MEMBER)
    expectInvalid(await api.get("/api/purchases/me", { token: made.owner.token }), "X-CommunityId", "headers")
    expectInvalid(await api.get("/api/purchases/me?cursor=zzz", made.scoped), "cursor", "query")
    expectInvalid(await api.get("/api/purchases/me?limit=101", made.scoped), "limit", "query")
    expectInvalid(await api.get("/api/purchases/me?limit=0", made.scoped), "limit", "query")
  })
})
