import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activeProduct } from "../support/selling"
import { buyer, cardCheckout, shop } from "./checkout-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Shop = Awaited<ReturnType<typeof shop>>

const buy = async (made: Shop, productId: string, extra: Record<string, unknown> = {}) =>
  expectOk(await api.post("/api/checkout", cardCheckout(productId, extra), { community: made.community.id }), 201)

describe("GET /api/manage/purchases", () => {
  it("lists the community's sales newest first, with buyer, product, amounts, method and status", async () => {
    const made = await shop(api)
    const email = buyer().email
    const first = await buy(made, made.product.id, { buyer: { ...buyer(email), name: "Ana, \"a compradora\"" } })
    const second = await buy(made, made.product.id)
    const reply = await api.get("/api/manage/purchases", made.scoped)
    const rows = expectOk(reply, 200, "Vendas encontradas.")
    expect(rows.map((row: any) => row.id)).toEqual([second.purchaseId, first.purchaseId])
    expect(rows[1]).toMatchObject({
      id: first.purchaseId,
      chargeId: first.chargeId,
      status: "paid",
      buyer: { profileId: first.profileId, fullName: "Ana, \"a compradora\"", email },
      product: { id: made.product.id, title: "Ingresso" },
      paymentMethod: "CREDIT_CARD",
      installments: 1,
      currency: "BRL",
      total: 10000,
      refundedAmount: 0
    })
    expect(rows[1].fee + rows[1].net).toBe(10000)
    expect(typeof rows[1].createdAt).toBe("string")
    expect(reply.body.pagination).toEqual({ limit: 20, nextCursor: null })
  })

  it("pages by keyset and filters by product, buyer, method, status and dates", async () => {
    const made = await shop(api)
    const other = await activeProduct(api, made.owner, made.community, { title: "Workshop", price: 5000 })
    const a = await buy(made, made.product.id)
    const b = await buy(made, other.id)
    const c = await buy(made, made.product.id)
    const page1 = await api.get("/api/manage/purchases?limit=2", made.scoped)
    expect(expectOk(page1).map((r: any) => r.id)).toEqual([c.purchaseId, b.purchaseId])
    const page2 = await api.get(`/api/manage/purchases?limit=2&cursor=${page1.body.pagination.nextCursor}`, made.scoped)
    expect(expectOk(page2).map((r: any) => r.id)).toEqual([a.purchaseId])
    expect(page2.body.pagination.nextCursor).toBeNull()
    const byProduct = expectOk(await api.get(`/api/manage/purchases?productId=${other.id}`, made.scoped))
    expect(byProduct.map((r: any) => r.id)).toEqual([b.purchaseId])
    const byBuyer = expectOk(await api.get(`/api/manage/purchases?profileId=${a.profileId}`, made.scoped))
    expect(byBuyer.map((r: any) => r.id)).toEqual([a.purchaseId])
    expect(expectOk(await api.get("/api/manage/purchases?paymentMethod=PIX", made.scoped))).toEqual([])
    expect(expectOk(await api.get("/api/manage/purchases?paymentMethod=CREDIT_CARD", made.scoped))).toHaveLength(3)
    expectOk(await api.post(`/api/manage/purchases/${b.purchaseId}/refund`, { reason: "x" }, made.scoped))
    expectOk(await api.post(`/api/manage/purchases/${c.purchaseId}/refund`, { reason: "x", amount: 10 }, made.scoped))
    const refunded = expectOk(await api.get("/api/manage/purchases?status=refunded", made.scoped))
    expect(refunded.map((r: any) => r.id)).toEqual([b.purchaseId])
    const partial = expectOk(await api.get("/api/manage/purchases?status=partially_refunded", made.scoped))
    expect(partial.map((r: any) => [r.id, r.refundedAmount])).toEqual([[c.purchaseId, 10]])
    const paid = expectOk(await api.get("/api/manage/purchases?status=paid", made.scoped))
    expect(paid.map((r: any) => r.id)).toEqual([a.purchaseId])
    const today = new Date().toISOString().slice(0, 10)
    expect(expectOk(await api.get(`/api/manage/purchases?from=${today}&to=${today}`, made.scoped))).toHaveLength(3)
    expect(expectOk(await api.get("/api/manage/purchases?to=2000-01-01", made.scoped))).toEqual([])
    expectInvalid(await api.get("/api/manage/purchases?from=2030-01-02&to=2030-01-01", made.scoped), "to", "query")
    expectInvalid(await api.get("/api/manage/purchases?status=lost", made.scoped), "status", "query")
    expectInvalid(await api.get("/api/manage/purchases?productId=x", made.scoped), "productId", "query")
    expectInvalid(await api.get("/api/manage/purchases?from=yesterday", made.scoped), "from", "query")
    expectInvalid(await api.get("/api/manage/purchases?limit=500", made.scoped), "limit", "query")
  })

  it("owner, admin and finance read; others 403; another community sees none of it", async () => {
    const made = await shop(api)
    const sale = await buy(made, made.product.id)
    const finance = await made.addMember("finance")
    expect(expectOk(await api.get("/api/manage/purchases", as(finance, made.community)))).toHaveLength(1)
    const admin = await made.addMember("admin")
    expectOk(await api.get("/api/manage/purchases", as(admin, made.community)))
    const member = await made.addMember("member")
    expectError(
      await api.get("/api/manage/purchases", as(member, made.community)),
      403,
      roleRequired(["owner", "admin", "finance"], "member")
    )
    const moderator = await made.addMember("moderator")
    expectError(await api.get("/api/manage/purchases.csv", as(moderator, made.community)), 404)
    expectError(await api.get("/api/manage/purchases/export.csv", as(moderator, made.community)), 403)
    const other = await newCommunity(api, "Alheia")
    const theirs = expectOk(await api.get("/api/manage/purchases", as(other.owner, other.community)))
    expect(theirs.map((r: any) => r.id)).not.toContain(sale.purchaseId)
    expectError(await api.get("/api/manage/purchases"), 401)
  })
})

describe("GET /api/manage/purchases/export.csv", () => {
  it("answers RFC 4180 CSV with a header line and every matching sale", async () => {
    const made = await shop(api)
    const first = await buy(made, made.product.id, { buyer: { ...buyer(), name: "Ana, \"a compradora\"" } })
    const second = await buy(made, made.product.id)
    const reply = await api.get("/api/manage/purchases/export.csv", made.scoped)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/csv")
    const text = reply.body as string
    const lines = text.split("\r\n")
    expect(lines[0]).toBe(
      "id,chargeId,status,buyerProfileId,buyerName,buyerEmail,productId,productTitle,paymentMethod,installments,currency,total,fee,net,refundedAmount,paidAt,createdAt"
    )
    expect(lines).toHaveLength(4)
    expect(lines[3]).toBe("")
    expect(lines[1]!.startsWith(`${second.purchaseId},${second.chargeId},paid,`)).toBe(true)
    expect(lines[2]).toContain("\"Ana, \"\"a compradora\"\"\"")
    expect(lines[2]!.startsWith(first.purchaseId)).toBe(true)
    const filtered = await api.get(`/api/manage/purchases/export.csv?profileId=${first.profileId}`, made.scoped)
    expect((filtered.body as string).split("\r\n")).toHaveLength(3)
    expectInvalid(await api.get("/api/manage/purchases/export.csv?status=x", made.scoped), "status", "query")
  })

  it("writes buyer names a spreadsheet would run as formulas as text (OWASP CSV injection)", async () => {
    const made = await shop(api)
    const names = ["=HYPERLINK(\"http://evil.example\";\"x\")", "+1+2", "-2+3", "@SUM(A1)", "Ana - Souza"]
    for (const name of names) await buy(made, made.product.id, { buyer: { ...buyer(), name } })
    const lines = ((await api.get("/api/manage/purchases/export.csv", made.scoped)).body as string).split("\r\n")
    const cells = lines.slice(1, -1).map((line) => line.split(",")[4])
    expect(cells.reverse()).toEqual([
      "\"'=HYPERLINK(\"\"http://evil.example\"\";\"\"x\"\")\"",
      "'+1+2",
      "'-2+3",
      "'@SUM(A1)",
      "Ana - Souza"
    ])
  })
})
