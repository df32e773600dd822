import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { cardCheckout, shop } from "./checkout-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Shop = Awaited<ReturnType<typeof shop>>

const buy = async (made: Shop, extra: Record<string, unknown> = {}, productId = made.product.id) => {
  const sale = expectOk(
    await api.post("/api/checkout", cardCheckout(productId, extra), { community: made.community.id }),
    201
  )
  expect(sale.status).toBe("paid")
  return sale
}

/** A PIX purchase paid through the sandbox: its net is available at once. */
const buyPix = async (made: Shop, extra: Record<string, unknown> = {}) => {
  const sale = expectOk(
    await api.post("/api/checkout", {
      ...cardCheckout(made.product.id, extra),
      paymentMethod: "PIX",
      cardToken: undefined
    }, {
      community: made.community.id
    }),
    201
  )
  const paid = expectOk(await api.post(`/api/checkout/sandbox/${sale.chargeId}/pay`, {}, made.scoped))
  return { ...sale, purchaseId: paid.purchaseId as string }
}

const ledgerBalance = async (made: Shop) =>
  (expectOk(await api.get("/api/payouts/balance", made.scoped)) as Array<any>)[0]

const unbalanced = (communityId: string) =>
  query(roda, (sql) =>
    sql`SELECT transaction_id FROM ledger_entries WHERE community_id = ${communityId}
      GROUP BY transaction_id, currency HAVING sum(amount) <> 0`)

describe("POST /api/manage/purchases/{id}/refund", () => {
  it("refunds a card purchase in full from pending, ends access, e-mails a receipt, and refuses a second refund", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    const before = await ledgerBalance(made)
    expect(before.pending).toBeGreaterThan(0)
    const reply = await api.post(
      `/api/manage/purchases/${sale.purchaseId}/refund`,
      { reason: "Pedido do cliente" },
      made.scoped
    )
    const refund = expectOk(reply, 200, "Reembolso feito.")
    expect(refund).toMatchObject({
      purchaseId: sale.purchaseId,
      amount: 10000,
      full: true,
      currency: "BRL",
      fromPending: before.pending,
      fromAvailable: 0,
      reason: "Pedido do cliente",
      purchase: { id: sale.purchaseId, status: "refunded", refundedAmount: 10000 }
    })
    expect(refund.platformFeeReturned).toBe(10000 - before.pending)
    expect(await ledgerBalance(made)).toMatchObject({ pending: 0, available: 0 })
    expect(await unbalanced(made.community.id)).toEqual([])
    // the release of the card sale (D+30) will move nothing any more
    const releases = await query<{ amount: string }>(
      roda,
      (sql) => sql`SELECT amount::text AS amount FROM ledger_releases WHERE community_id = ${made.community.id}`
    )
    expect(releases).toEqual([{ amount: "0" }])
    // access ended
    const open = await query(
      roda,
      (sql) => sql`SELECT id FROM entitlements WHERE profile_id = ${sale.profileId} AND valid_until IS NULL`
    )
    expect(open).toEqual([])
    // receipt
    const mails = await query<{ kind: string; body: string }>(
      roda,
      (sql) => sql`SELECT kind, body FROM outbox WHERE community_id = ${made.community.id} AND kind = 'refund'`
    )
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain("100.00 BRL")
    // twice: 409 with param status
    const again = await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "de novo" }, made.scoped)
    const body = expectError(again, 409, "Esta compra já foi reembolsada por inteiro. Ações permitidas: nenhuma.")
    expect(body.errors[0].param).toBe("status")
  })

  it("refunds part of a PIX purchase from available, refuses more than is left, then refunds the rest", async () => {
    const made = await shop(api)
    const sale = await buyPix(made)
    const start = await ledgerBalance(made)
    expect(start.pending).toBe(0)
    const part = expectOk(
      await api.post(
        `/api/manage/purchases/${sale.purchaseId}/refund`,
        { amount: 3000, reason: "Desconto" },
        made.scoped
      )
    )
    expect(part).toMatchObject({
      amount: 3000,
      full: false,
      fromPending: 0,
      purchase: { status: "partially_refunded" }
    })
    const afterPart = await ledgerBalance(made)
    expect(afterPart.available).toBe(start.available - part.fromAvailable)
    expect(part.fromAvailable + part.platformFeeReturned + part.interestReturned).toBe(3000)
    const tooMuch = await api.post(
      `/api/manage/purchases/${sale.purchaseId}/refund`,
      { amount: 7001, reason: "x" },
      made.scoped
    )
    expectInvalid(tooMuch, "amount")
    expect(tooMuch.body.message).toBe("O reembolso passa do valor que resta a reembolsar: 70.00 BRL.")
    const rest = expectOk(
      await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "Resto" }, made.scoped)
    )
    expect(rest).toMatchObject({ amount: 7000, full: true, purchase: { status: "refunded", refundedAmount: 10000 } })
    // the whole sale is reversed: the community holds nothing of it, the platform gave its fee back
    expect(await ledgerBalance(made)).toMatchObject({ pending: 0, available: 0 })
    const fees = await query<{ balance: string }>(
      roda,
      (sql) =>
        sql`SELECT balance::text AS balance FROM ledger_balances WHERE community_id = ${made.community.id}
        AND account = 'platform_fees'`
    )
    expect(fees).toEqual([{ balance: "0" }])
    expect(await unbalanced(made.community.id)).toEqual([])
  })

  it("releases the stock unit and the coupon use once refunded in full", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    const coupon = expectOk(
      await api.post("/api/coupons", { code: "VOLTA", percentOff: 10, maxRedemptions: 1 }, made.scoped),
      201
    )
    const sale = await buy(made, { couponCode: "VOLTA" })
    const stockOf = async () =>
      (await query<{ stockQuantity: number }>(
        roda,
        (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${made.product.id}`
      ))[0]!.stockQuantity
    const usesOf = async () =>
      (await query<{ timesRedeemed: number }>(
        roda,
        (sql) => sql`SELECT times_redeemed FROM coupons WHERE id = ${coupon.id}`
      ))[0]!.timesRedeemed
    expect(await stockOf()).toBe(0)
    expect(await usesOf()).toBe(1)
    // a partial refund keeps them
    expectOk(
      await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { amount: 100, reason: "parte" }, made.scoped)
    )
    expect(await stockOf()).toBe(0)
    expect(await usesOf()).toBe(1)
    expectOk(await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "tudo" }, made.scoped))
    expect(await stockOf()).toBe(1)
    expect(await usesOf()).toBe(0)
    // both can be used again
    await buy(made, { couponCode: "VOLTA" })
    expect(await stockOf()).toBe(0)
  })

  it("is for owner and admin; 404 across communities; 400 for bad input", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    const url = `/api/manage/purchases/${sale.purchaseId}/refund`
    const finance = await made.addMember("finance")
    expectError(
      await api.post(url, { reason: "x" }, as(finance, made.community)),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
    const member = await made.addMember("member")
    expectError(await api.post(url, { reason: "x" }, as(member, made.community)), 403)
    const other = await newCommunity(api, "Outra loja")
    expectError(await api.post(url, { reason: "x" }, as(other.owner, other.community)), 404)
    expectError(await api.post(`/api/manage/purchases/${unknownId()}/refund`, { reason: "x" }, made.scoped), 404)
    expectInvalid(await api.post("/api/manage/purchases/nope/refund", { reason: "x" }, made.scoped), "id", "params")
    expectInvalid(await api.post(url, {}, made.scoped), "reason")
    expectInvalid(await api.post(url, { reason: "x", amount: 0 }, made.scoped), "amount")
    expectInvalid(await api.post(url, { reason: "x", amount: "10" }, made.scoped), "amount")
    expectError(await api.post(url, { reason: "x" }), 401)
    const admin = await made.addMember("admin")
    expectOk(await api.post(url, { reason: "x", amount: 50 }, as(admin, made.community)))
  })

  it("refuses a refund after the gateway's window (180 days in the sandbox)", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    await query(
      roda,
      (sql) => sql`UPDATE charges SET paid_at = paid_at - interval '181 days' WHERE id = ${sale.chargeId}`
    )
    const late = await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "tarde" }, made.scoped)
    const body = expectError(late, 409, "O prazo de reembolso do gateway (180 dias após o pagamento) terminou.")
    expect(body.errors[0].param).toBe("status")
  })

  it("concurrent refunds of one purchase settle once", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    const replies = await Promise.all(
      Array.from(
        { length: 20 },
        () => api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "corrida" }, made.scoped)
      )
    )
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(19)
    const refunds = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM refunds WHERE charge_id = ${sale.chargeId}`
    )
    expect(refunds).toEqual([{ n: 1 }])
    const txs = await query<{ n: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE community_id = ${made.community.id} AND kind = 'refund'`
    )
    expect(txs).toEqual([{ n: 1 }])
    expect(await ledgerBalance(made)).toMatchObject({ pending: 0, available: 0 })
  }, 60_000)

  it("replays the first answer for a repeated Idempotency-Key (one refund)", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    const keyed = { ...made.scoped, headers: { "idempotency-key": "reembolso-1" } }
    const url = `/api/manage/purchases/${sale.purchaseId}/refund`
    const first = expectOk(await api.post(url, { amount: 1000, reason: "x" }, keyed))
    const again = expectOk(await api.post(url, { amount: 1000, reason: "x" }, keyed))
    expect(again.id).toBe(first.id)
    const charge = await query<{ refundedAmount: string }>(
      roda,
      (sql) => sql`SELECT refunded_amount::text AS refunded_amount FROM charges WHERE id = ${sale.chargeId}`
    )
    expect(charge).toEqual([{ refundedAmount: "1000" }])
  })

  it("concurrent partial refunds never pass the total", async () => {
    const made = await shop(api)
    const sale = await buy(made)
    const replies = await Promise.all(
      Array.from(
        { length: 15 },
        () =>
          api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { amount: 1000, reason: "parcial" }, made.scoped)
      )
    )
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(10)
    expect(replies.filter((reply) => reply.status === 409 || reply.status === 400)).toHaveLength(5)
    const charge = await query<{ refundedAmount: string }>(
      roda,
      (sql) => sql`SELECT refunded_amount::text AS refunded_amount FROM charges WHERE id = ${sale.chargeId}`
    )
    expect(charge).toEqual([{ refundedAmount: "10000" }])
    expect(await unbalanced(made.community.id)).toEqual([])
  }, 60_000)
})
