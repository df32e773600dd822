import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { platformAdmin, sellingCommunity } from "../support/selling"
import { recordSale, unbalancedTransactions } from "./ledger-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NOT_CONFIGURED = "Payment configuration has not been set up for this community"

/** A selling community with one PIX sale of R$ 100,00 (released at once): net 98.01 available. */
const funded = async (amount = 10000) => {
  const shop = await sellingCommunity(api, "Saques")
  const sale = await recordSale(roda, shop.community.id, { method: "PIX", amount })
  return { ...shop, net: sale.amounts.net, scoped: as(shop.owner, shop.community) }
}

const balance = async (shop: Awaited<ReturnType<typeof funded>>) =>
  (expectOk(await api.get("/api/payouts/balance", shop.scoped), 200, "Saldo encontrado.") as Array<any>)[0]

describe("GET /api/payouts/balance", () => {
  it("answers zeros in the community's currency before any sale, for owner, admin and finance only", async () => {
    const made = await newCommunity(api, "Saldo")
    const data = expectOk(await api.get("/api/payouts/balance", as(made.owner, made.community)))
    expect(data).toEqual([
      { currency: "BRL", pending: 0, available: 0, inTransit: 0, disputed: 0, total: 0, settledByGateway: 0 }
    ])
    const finance = await made.addMember("finance")
    expectOk(await api.get("/api/payouts/balance", as(finance, made.community)))
    const member = await made.addMember("member")
    expectError(
      await api.get("/api/payouts/balance", as(member, made.community)),
      403,
      roleRequired(["owner", "admin", "finance"], "member")
    )
    const moderator = await made.addMember("moderator")
    expectError(await api.get("/api/payouts/balance", as(moderator, made.community)), 403)
    expectError(await api.get("/api/payouts/balance", { token: made.owner.token }), 400)
    expectError(await api.get("/api/payouts/balance"), 401)
  })

  it("shows pending (card, D+30) and available (PIX) separately", async () => {
    const shop = await funded()
    await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", amount: 5000 })
    const row = await balance(shop)
    expect(row.available).toBe(shop.net)
    expect(row.pending).toBeGreaterThan(0)
    expect(row.inTransit).toBe(0)
    expect(row.total).toBe(row.pending + row.available)
  })
})

describe("POST /api/payouts", () => {
  it("needs approved payout settings (§7)", async () => {
    const made = await newCommunity(api, "Sem config")
    expectError(await api.post("/api/payouts", { amount: 100 }, as(made.owner, made.community)), 400, NOT_CONFIGURED)
  })

  it("refuses amount + fee above available with the formatted balance, and bad amounts with param", async () => {
    const shop = await funded()
    const tooMuch = await api.post("/api/payouts", { amount: shop.net - 200 + 1 }, shop.scoped)
    const body = expectInvalid(tooMuch, "amount")
    expect(body.message).toBe(`Insufficient balance. Available: ${(shop.net / 100).toFixed(2)} BRL`)
    expectInvalid(await api.post("/api/payouts", { amount: 0 }, shop.scoped), "amount")
    expectInvalid(await api.post("/api/payouts", { amount: 12.5 }, shop.scoped), "amount")
    expectInvalid(await api.post("/api/payouts", {}, shop.scoped), "amount")
    expectInvalid(await api.post("/api/payouts", { amount: 100, currency: "reais" }, shop.scoped), "currency")
    // exactly the available balance, fee included, is fine
    const ok = expectOk(
      await api.post("/api/payouts", { amount: shop.net - 200 }, shop.scoped),
      201,
      "Saque solicitado."
    )
    expect(ok).toMatchObject({ status: "pending", amount: shop.net - 200, fee: 200, total: shop.net, currency: "BRL" })
    expect(await balance(shop)).toMatchObject({ available: 0, inTransit: shop.net - 200 })
  })

  it("creates a pending payout, moves the money to in transit, and allows one open payout at a time", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 5000 }, shop.scoped), 201)
    expect(payout).toMatchObject({
      status: "pending",
      amount: 5000,
      fee: 200,
      total: 5200,
      allowedMoves: ["in_transit", "canceled", "failed"],
      method: "PIX",
      requestedBy: shop.owner.profileId
    })
    expect(await balance(shop)).toMatchObject({ available: shop.net - 5200, inTransit: 5000 })
    const second = await api.post("/api/payouts", { amount: 100 }, shop.scoped)
    expectError(second, 409)
    expect(second.body.errors[0].param).toBe("amount")
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })

  it("replays the first answer for a repeated Idempotency-Key (one payout)", async () => {
    const shop = await funded()
    const keyed = { ...shop.scoped, headers: { "idempotency-key": "saque-1" } }
    const first = expectOk(await api.post("/api/payouts", { amount: 1000 }, keyed), 201)
    const again = expectOk(await api.post("/api/payouts", { amount: 1000 }, keyed), 201)
    expect(again.id).toBe(first.id)
    expect(expectOk(await api.get("/api/payouts", shop.scoped))).toHaveLength(1)
    expect(await balance(shop)).toMatchObject({ available: shop.net - 1200, inTransit: 1000 })
  })

  it("is for owner and admin; finance and members get 403", async () => {
    const shop = await funded()
    const finance = await shop.addMember("finance")
    expectError(
      await api.post("/api/payouts", { amount: 100 }, as(finance, shop.community)),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
    const member = await shop.addMember("member")
    expectError(await api.post("/api/payouts", { amount: 100 }, as(member, shop.community)), 403)
    const admin = await shop.addMember("admin")
    expectOk(await api.post("/api/payouts", { amount: 100 }, as(admin, shop.community)), 201)
  })

  it("200 concurrent requests against one balance never overdraw it", async () => {
    const shop = await funded(100000)
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => api.post("/api/payouts", { amount: 1000 }, shop.scoped))
    )
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true)
    const row = await balance(shop)
    expect(row).toMatchObject({ available: shop.net - 1200, inTransit: 1000 })
    // and, payout after payout, the balance never goes below zero
    const list = expectOk(await api.get("/api/payouts", shop.scoped)) as Array<any>
    expect(list).toHaveLength(1)
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  }, 120_000)

  it("sequential payouts drain the balance exactly to zero and no further", async () => {
    const shop = await funded()
    const operator = await platformAdmin(api)
    let left = shop.net
    for (const amount of [3000, 3000]) {
      const payout = expectOk(await api.post("/api/payouts", { amount }, shop.scoped), 201)
      expectOk(
        await api.post(`/api/admin/communities/${shop.community.id}/payouts/${payout.id}/in-transit`, {}, {
          token: operator
        })
      )
      expectOk(
        await api.post(`/api/admin/communities/${shop.community.id}/payouts/${payout.id}/paid`, {}, { token: operator })
      )
      left -= amount + 200
    }
    expect(await balance(shop)).toMatchObject({ available: left, inTransit: 0 })
    expectInvalid(await api.post("/api/payouts", { amount: left - 199 }, shop.scoped), "amount")
    expectOk(await api.post("/api/payouts", { amount: left - 200 }, shop.scoped), 201)
    expect((await balance(shop)).available).toBe(0)
  })
})

describe("GET /api/payouts and /api/payouts/{id}", () => {
  it("lists newest first with keyset pages and a status filter; detail; 404 across communities; 400 bad ids", async () => {
    const shop = await funded()
    const first = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    expectOk(await api.post(`/api/payouts/${first.id}/cancel`, {}, shop.scoped))
    const second = expectOk(await api.post("/api/payouts", { amount: 2000 }, shop.scoped), 201)
    const page1 = await api.get("/api/payouts?limit=1", shop.scoped)
    expect(expectOk(page1, 200, "Saques encontrados.").map((p: any) => p.id)).toEqual([second.id])
    const cursor = page1.body.pagination.nextCursor
    expect(typeof cursor).toBe("string")
    const page2 = await api.get(`/api/payouts?limit=1&cursor=${cursor}`, shop.scoped)
    expect(expectOk(page2).map((p: any) => p.id)).toEqual([first.id])
    expect(page2.body.pagination.nextCursor).toBeNull()
    const canceled = expectOk(await api.get("/api/payouts?status=canceled", shop.scoped))
    expect(canceled.map((p: any) => p.id)).toEqual([first.id])
    expectInvalid(await api.get("/api/payouts?status=lost", shop.scoped), "status", "query")
    expectInvalid(await api.get("/api/payouts?cursor=nope", shop.scoped), "cursor", "query")
    const detail = expectOk(await api.get(`/api/payouts/${second.id}`, shop.scoped), 200, "Saque encontrado.")
    expect(detail).toMatchObject({ id: second.id, status: "pending", amount: 2000 })
    const finance = await shop.addMember("finance")
    expectOk(await api.get(`/api/payouts/${second.id}`, as(finance, shop.community)))
    const member = await shop.addMember("member")
    expectError(await api.get(`/api/payouts/${second.id}`, as(member, shop.community)), 403)
    expectError(await api.get("/api/payouts", as(member, shop.community)), 403)
    const other = await newCommunity(api, "Outra")
    expectError(await api.get(`/api/payouts/${second.id}`, as(other.owner, other.community)), 404)
    expectError(await api.post(`/api/payouts/${second.id}/cancel`, {}, as(other.owner, other.community)), 404)
    expectError(await api.get(`/api/payouts/${unknownId()}`, shop.scoped), 404)
    expectInvalid(await api.get("/api/payouts/not-a-uuid", shop.scoped), "id", "params")
  })
})

describe("payout state machine", () => {
  it("cancel returns amount and fee to available; a canceled payout moves no more (409 with the allowed moves)", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 4000 }, shop.scoped), 201)
    const member = await shop.addMember("member")
    expectError(await api.post(`/api/payouts/${payout.id}/cancel`, {}, as(member, shop.community)), 403)
    const canceled = expectOk(
      await api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped),
      200,
      "Saque cancelado; o valor voltou ao saldo disponível."
    )
    expect(canceled).toMatchObject({ status: "canceled", allowedMoves: [] })
    expect(typeof canceled.canceledAt).toBe("string")
    expect(await balance(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
    const again = await api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped)
    const body = expectError(
      again,
      409,
      "Não é possível mudar o saque de canceled para canceled. Movimentos permitidos: nenhum."
    )
    expect(body.errors[0].param).toBe("status")
    const english = await api.post(`/api/payouts/${payout.id}/cancel`, {}, {
      ...shop.scoped,
      headers: { "accept-language": "en" }
    })
    expect(english.body.message).toBe("The payout cannot move from canceled to canceled. Allowed moves: none.")
    // the community may request again
    expectOk(await api.post("/api/payouts", { amount: 4000 }, shop.scoped), 201)
  })

  it("operators move pending -> in_transit -> paid; failed returns the funds; refused moves are 409", async () => {
    const shop = await funded()
    const operator = await platformAdmin(api)
    const base = `/api/admin/communities/${shop.community.id}/payouts`
    const payout = expectOk(await api.post("/api/payouts", { amount: 3000 }, shop.scoped), 201)
    expect(payout.destination).toBeNull()
    // only operators
    expectError(await api.post(`${base}/${payout.id}/in-transit`, {}, { token: shop.owner.token }), 403)
    expectError(await api.post(`${base}/${payout.id}/in-transit`, {}), 401)
    // pending -> paid is not a move
    const skip = await api.post(`${base}/${payout.id}/paid`, {}, { token: operator })
    expectError(
      skip,
      409,
      "Não é possível mudar o saque de pending para paid. Movimentos permitidos: in_transit, canceled, failed."
    )
    // wrong community in the path, unknown community
    const other = await newCommunity(api, "Outra op")
    expectError(
      await api.post(`/api/admin/communities/${other.community.id}/payouts/${payout.id}/in-transit`, {}, {
        token: operator
      }),
      404
    )
    expectError(
      await api.post(`/api/admin/communities/${unknownId()}/payouts/${payout.id}/in-transit`, {}, { token: operator }),
      404
    )
    expectInvalid(
      await api.post(`/api/admin/communities/not-a-uuid/payouts/${payout.id}/in-transit`, {}, { token: operator }),
      "communityId",
      "params"
    )
    const moving = expectOk(
      await api.post(`${base}/${payout.id}/in-transit`, {}, { token: operator }),
      200,
      "Saque marcado como em trânsito."
    )
    expect(moving).toMatchObject({
      status: "in_transit",
      allowedMoves: ["paid", "failed"],
      destination: "PIX EMAIL financeiro@roda.test"
    })
    // the community can no longer cancel it
    expectError(await api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped), 409)
    const paid = expectOk(
      await api.post(`${base}/${payout.id}/paid`, {}, { token: operator }),
      200,
      "Saque marcado como pago."
    )
    expect(paid).toMatchObject({
      status: "paid",
      allowedMoves: ["failed"],
      destination: "PIX EMAIL financeiro@roda.test"
    })
    expect(await balance(shop)).toMatchObject({ available: shop.net - 3200, inTransit: 0 })
    // a bank return: paid -> failed, with a reason (required)
    expectInvalid(await api.post(`${base}/${payout.id}/failed`, {}, { token: operator }), "reason")
    const failed = expectOk(
      await api.post(`${base}/${payout.id}/failed`, { reason: "Conta encerrada" }, { token: operator }),
      200,
      "Saque marcado como falho; o valor voltou ao saldo disponível."
    )
    expect(failed).toMatchObject({ status: "failed", failureReason: "Conta encerrada", allowedMoves: [] })
    expect(await balance(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
    expectError(await api.post(`${base}/${payout.id}/in-transit`, {}, { token: operator }), 409)
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })

  it("operators list a community's payouts by status; others 403; unknown community 404", async () => {
    const shop = await funded()
    const operator = await platformAdmin(api)
    const payout = expectOk(await api.post("/api/payouts", { amount: 700 }, shop.scoped), 201)
    const base = `/api/admin/communities/${shop.community.id}/payouts`
    const pending = expectOk(await api.get(`${base}?status=pending`, { token: operator }), 200, "Saques encontrados.")
    expect(pending.map((p: any) => p.id)).toEqual([payout.id])
    expect(expectOk(await api.get(`${base}?status=paid`, { token: operator }))).toEqual([])
    expectError(await api.get(base, { token: shop.owner.token }), 403)
    expectError(await api.get(`/api/admin/communities/${unknownId()}/payouts`, { token: operator }), 404)
    expectInvalid(await api.get(`${base}?status=nope`, { token: operator }), "status", "query")
    // the old path with the community prefix is gone (spec §9)
    expectError(await api.get(`/api/communities/${shop.community.id}/payouts`, shop.scoped), 404)
  })

  it("a pending or in-transit payout that fails gives the money back to available", async () => {
    const shop = await funded()
    const operator = await platformAdmin(api)
    const base = `/api/admin/communities/${shop.community.id}/payouts`
    const first = expectOk(await api.post("/api/payouts", { amount: 1500 }, shop.scoped), 201)
    expectOk(await api.post(`${base}/${first.id}/failed`, { reason: "Chave PIX inválida" }, { token: operator }))
    expect(await balance(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
    const second = expectOk(await api.post("/api/payouts", { amount: 1500 }, shop.scoped), 201)
    expectOk(await api.post(`${base}/${second.id}/in-transit`, {}, { token: operator }))
    expectOk(await api.post(`${base}/${second.id}/failed`, { reason: "Recusado pelo banco" }, { token: operator }))
    expect(await balance(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
    const rows = expectOk(await api.get("/api/payouts?status=failed", shop.scoped))
    expect(rows).toHaveLength(2)
  })
})
