import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommunityId, LedgerPosting, Pricing } from "../../src/index"
import { defaultFees, saleAmounts } from "../../src/money/ledger/salePricing"
import { as, newCommunity, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { type CallOptions, client, type Reply, startRoda } from "../support/harness"
import { platformAdmin, sellingCommunity, VALID_CPF } from "../support/selling"
import { query } from "../support/sql"
import { recordSale, transactionCount, unbalancedTransactions } from "./ledger-support"

/**
 * An attacker's review of the money routes (business information, payout settings, fees, ledger,
 * payouts and the operators' routes): who may call them, another community's ids, concurrent and
 * retried requests, refunds racing payouts, integer money, and hostile input.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const FEE = 200
const OPEN_PAYOUT =
  "Já existe um saque em aberto (pendente ou em trânsito); aguarde-o ou cancele-o antes de pedir outro."

let operator: string
beforeAll(async () => {
  operator = await platformAdmin(api)
})

/** A selling community with one PIX sale (released at once): `net` available. */
const funded = async (amount = 10000) => {
  const shop = await sellingCommunity(api, "Ataque")
  const sale = await recordSale(roda, shop.community.id, { method: "PIX", amount })
  return { ...shop, net: sale.amounts.net, chargeId: sale.chargeId, scoped: as(shop.owner, shop.community) }
}
type Shop = Awaited<ReturnType<typeof funded>>

const balanceOf = async (shop: Shop, currency = "BRL") =>
  (expectOk(await api.get("/api/payouts/balance", shop.scoped)) as Array<any>).find((row) => row.currency === currency)

/** The community's payout rows, straight from the database. */
const payoutRows = (shop: Shop) =>
  query<{ id: string; status: string }>(
    roda,
    (sql) => sql`SELECT id, status FROM payouts WHERE community_id = ${shop.community.id}`
  )

const statusesOf = (replies: ReadonlyArray<Reply>) => replies.map((reply) => reply.status).sort()

const opsBase = (shop: Shop, id: string) => `/api/admin/communities/${shop.community.id}/payouts/${id}`
const ops = (): CallOptions => ({ token: operator })

describe("payout requests at the same time", () => {
  it("the same request ten times at once makes one payout and one ledger posting", async () => {
    const shop = await funded()
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => api.post("/api/payouts", { amount: 3000 }, shop.scoped))
    )
    expect(statusesOf(replies)).toEqual([201, ...Array(9).fill(409)])
    for (const reply of replies.filter((r) => r.status === 409)) expectError(reply, 409, OPEN_PAYOUT)
    expect(await payoutRows(shop)).toHaveLength(1)
    expect(await transactionCount(roda, shop.community.id, "payout")).toBe(1)
    expect(await balanceOf(shop)).toMatchObject({ available: shop.net - 3000 - FEE, inTransit: 3000 })
  })

  it("two amounts that each fit alone but not together: one is paid out, the balance never goes below zero", async () => {
    const shop = await funded()
    const first = shop.net - FEE - 10
    const second = shop.net - FEE - 20
    const replies = await Promise.all([
      api.post("/api/payouts", { amount: first }, shop.scoped),
      api.post("/api/payouts", { amount: second }, shop.scoped)
    ])
    expect(statusesOf(replies)).toEqual([201, 409])
    const made = replies.find((reply) => reply.status === 201)!.body.data
    const row = await balanceOf(shop)
    expect(row).toMatchObject({ available: shop.net - made.amount - FEE, inTransit: made.amount })
    expect(row.available).toBeGreaterThanOrEqual(0)
    expect(await transactionCount(roda, shop.community.id, "payout")).toBe(1)
  })

  it("requests in two currencies at once still make one open payout", async () => {
    const shop = await funded()
    await recordSale(roda, shop.community.id, { method: "PIX", amount: 10000, currency: "USD" })
    const replies = await Promise.all([
      api.post("/api/payouts", { amount: 1000, currency: "BRL" }, shop.scoped),
      api.post("/api/payouts", { amount: 1000, currency: "USD" }, shop.scoped)
    ])
    expect(statusesOf(replies)).toEqual([201, 409])
    expect((await payoutRows(shop)).filter((row) => row.status === "pending")).toHaveLength(1)
    expect(await transactionCount(roda, shop.community.id, "payout")).toBe(1)
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })

  it("one Idempotency-Key sent five times at once: one payout, the same answer replayed", async () => {
    const shop = await funded()
    const keyed = { ...shop.scoped, headers: { "idempotency-key": `saque-${randomUUID()}` } }
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => api.post("/api/payouts", { amount: 1000 }, keyed))
    )
    expect(statusesOf(replies)).toEqual([201, 201, 201, 201, 201])
    expect(new Set(replies.map((reply) => reply.body.data.id)).size).toBe(1)
    expect(replies.filter((reply) => reply.headers.get("idempotent-replayed") === "true")).toHaveLength(4)
    // the same key with another amount is another request: refused, nothing written
    const other = await api.post("/api/payouts", { amount: 2000 }, keyed)
    expect(expectError(other, 409).errors[0]).toMatchObject({ param: "Idempotency-Key", location: "headers" })
    expect(await payoutRows(shop)).toHaveLength(1)
    expect(await transactionCount(roda, shop.community.id, "payout")).toBe(1)
  })

  it("the same request retried without a key after a lost answer does not pay out twice", async () => {
    const shop = await funded()
    expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    expectError(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 409, OPEN_PAYOUT)
    expect(await transactionCount(roda, shop.community.id, "payout")).toBe(1)
    expect(await balanceOf(shop)).toMatchObject({ available: shop.net - 1200, inTransit: 1000 })
  })
})

describe("a refund or chargeback while a payout is open", () => {
  it("debits available (below zero, as the contract allows), once per refund even when delivered twice at once", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: shop.net - FEE }, shop.scoped), 201)
    const refund = {
      communityId: CommunityId.make(shop.community.id),
      chargeId: shop.chargeId,
      refundId: randomUUID(),
      currency: "BRL",
      amount: 10000,
      fee: 10000 - shop.net,
      interest: 0,
      at: new Date(),
      description: "Chargeback: Ingresso"
    }
    const post = () => roda.runtime.runPromise(Effect.flatMap(LedgerPosting, (ledger) => ledger.recordRefund(refund)))
    await Promise.all([post(), post()])
    await post()
    expect(await transactionCount(roda, shop.community.id, "refund")).toBe(1)
    // LedgerPosting: "from pending first, then from available (which may go below zero)"; the open payout is untouched
    expect(await balanceOf(shop)).toMatchObject({ pending: 0, available: -shop.net, inTransit: shop.net - FEE })
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).status).toBe("pending")
    // cancelling gives back what the payout took; still nothing may be paid out of a negative balance
    expectOk(await api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped))
    expect(await balanceOf(shop)).toMatchObject({ available: 0, inTransit: 0 })
    const refused = expectInvalid(await api.post("/api/payouts", { amount: 1 }, shop.scoped), "amount")
    expect(refused.message).toBe("Insufficient balance. Available: 0.00 BRL")
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })
})

describe("operators at the same time", () => {
  it("a move asked by several operators at once happens once, and its money moves once", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    const base = opsBase(shop, payout.id)
    const sent = await Promise.all(
      Array.from({ length: 6 }, () => api.post(`${base}/in-transit`, {}, ops()))
    )
    expect(statusesOf(sent)).toEqual([200, 409, 409, 409, 409, 409])
    const failed = await Promise.all(
      Array.from({ length: 6 }, () => api.post(`${base}/failed`, { reason: "Conta encerrada" }, ops()))
    )
    expect(statusesOf(failed)).toEqual([200, 409, 409, 409, 409, 409])
    expect(await transactionCount(roda, shop.community.id, "payout_return")).toBe(1)
    expect(await balanceOf(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
  })

  it("the community's cancel racing an operator's failure: one wins, the money comes back once", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    const base = opsBase(shop, payout.id)
    const replies = await Promise.all([
      api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped),
      api.post(`${base}/failed`, { reason: "x" }, ops()),
      api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped),
      api.post(`${base}/failed`, { reason: "x" }, ops())
    ])
    expect(statusesOf(replies)).toEqual([200, 409, 409, 409])
    expect(await transactionCount(roda, shop.community.id, "payout_return")).toBe(1)
    expect(await balanceOf(shop)).toMatchObject({ available: shop.net, inTransit: 0 })
  })
})

describe("payout settings changed after the request", () => {
  const editSettings = async (shop: Shop, body: Record<string, unknown>) => {
    expectOk(await api.post("/api/payout-settings", body, shop.scoped))
  }
  const approveSettings = async (shop: Shop) => {
    expectOk(await api.post("/api/payout-settings/submit", {}, shop.scoped))
    expectOk(
      await api.post(`/api/admin/communities/${shop.community.id}/payout-settings/approve`, {}, ops())
    )
  }

  it("no money is sent while the edited settings wait for approval; once approved again it is", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    // someone with the community's manager rights points the payouts elsewhere after the request
    await editSettings(shop, { method: "PIX", pixKey: "desvio@roda.test" })
    const refused = await api.post(`${opsBase(shop, payout.id)}/in-transit`, {}, ops())
    expect(expectError(refused, 409).errors[0]).toMatchObject({ param: "payoutSettings" })
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).status).toBe("pending")
    await approveSettings(shop)
    const sent = expectOk(await api.post(`${opsBase(shop, payout.id)}/in-transit`, {}, ops()))
    expect(sent.status).toBe("in_transit")
    // the payout keeps where the money went, whatever the settings become afterwards
    expect(sent.destination).toBe("PIX EMAIL desvio@roda.test")
    await editSettings(shop, { method: "PIX", pixKey: "outra@roda.test" })
    await approveSettings(shop)
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).destination).toBe(
      "PIX EMAIL desvio@roda.test"
    )
  })

  it("settings approved again with another method: the payout is not sent for the old one", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    expect(payout.method).toBe("PIX")
    await editSettings(shop, {
      method: "BANK_ACCOUNT",
      bankAccount: {
        bankCode: "001",
        branch: "1234",
        accountNumber: "56789",
        accountType: "CHECKING",
        holderName: "Roda Cursos",
        holderTaxId: VALID_CPF
      }
    })
    await approveSettings(shop)
    const refused = await api.post(`${opsBase(shop, payout.id)}/in-transit`, {}, ops())
    expect(expectError(refused, 409).errors[0]).toMatchObject({ param: "payoutSettings" })
    // the community cancels and asks again, for the method now approved
    expectOk(await api.post(`/api/payouts/${payout.id}/cancel`, {}, shop.scoped))
    const again = expectOk(await api.post("/api/payouts", { amount: 1000 }, shop.scoped), 201)
    expect(again.method).toBe("BANK_ACCOUNT")
    expect(expectOk(await api.post(`${opsBase(shop, again.id)}/in-transit`, {}, ops())).destination).toBe(
      "BANK_ACCOUNT bank 001 branch 1234 account 56789 CHECKING Roda Cursos"
    )
  })
})

describe("who may call, and another community's ids", () => {
  /** Every community-scoped money route, with a body that would pass validation. */
  const routes = (payoutId: string): ReadonlyArray<readonly [string, string, unknown?]> => [
    ["GET", "/api/business-information"],
    ["POST", "/api/business-information", { country: "BR", legalName: "X", taxId: VALID_CPF }],
    ["POST", "/api/business-information/submit"],
    ["GET", "/api/payout-settings"],
    ["POST", "/api/payout-settings", { method: "PIX", pixKey: "x@roda.test" }],
    ["POST", "/api/payout-settings/submit"],
    ["GET", "/api/payout-settings/status"],
    ["GET", "/api/payout-settings/prerequisites"],
    ["GET", "/api/fees"],
    ["POST", "/api/fees/simulate", { amount: 1000, paymentMethod: "PIX" }],
    ["GET", "/api/ledger/entries"],
    ["GET", "/api/ledger/balance"],
    ["GET", "/api/payouts/balance"],
    ["GET", "/api/payouts"],
    ["POST", "/api/payouts", { amount: 100 }],
    ["GET", `/api/payouts/${payoutId}`],
    ["POST", `/api/payouts/${payoutId}/cancel`]
  ]
  const call = (method: string, path: string, body: unknown, options: CallOptions) =>
    api.call(method, path, { ...options, ...(body === undefined ? {} : { body }) })

  it("moderators and members get 403 without the data, outsiders 403 not a member, no token 401", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 100 }, shop.scoped), 201)
    const admin = await shop.addMember("admin")
    const moderator = await shop.addMember("moderator")
    const member = await shop.addMember("member")
    const outsider = (await newCommunity(api, "Fora")).owner
    for (const [method, path, body] of routes(payout.id)) {
      for (const who of [moderator, member]) {
        const reply = await call(method, path, body, as(who, shop.community))
        expectError(reply, 403)
        expect(JSON.stringify(reply.body)).not.toMatch(/financeiro@roda\.test|11222333000181|\+55/)
      }
      // acting as the admin (X-ProfileId) never lends the admin's role to a moderator
      expectError(await call(method, path, body, { ...as(moderator, shop.community), profile: admin.profileId }), 403)
      expectError(await call(method, path, body, as(outsider, shop.community)), 403, NOT_MEMBER)
      expectError(await call(method, path, body, { community: shop.community.id }), 401)
    }
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).status).toBe("pending")
  })

  it("the operators' routes are refused to the community's owner and admin", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 100 }, shop.scoped), 201)
    const admin = await shop.addMember("admin")
    const base = `/api/admin/communities/${shop.community.id}`
    const operatorRoutes: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", `${base}/payouts`],
      ["POST", `${base}/payouts/${payout.id}/in-transit`, {}],
      ["POST", `${base}/payouts/${payout.id}/paid`, {}],
      ["POST", `${base}/payouts/${payout.id}/failed`, { reason: "x" }],
      ["POST", `${base}/business-information/approve`, {}],
      ["POST", `${base}/business-information/reject`, { reason: "x" }],
      ["POST", `${base}/payout-settings/approve`, {}],
      ["POST", `${base}/payout-settings/reject`, { reason: "x" }],
      ["PUT", `${base}/fee-overrides/PIX`, { percentBps: 0, fixed: 0 }],
      ["DELETE", `${base}/fee-overrides/PIX`]
    ]
    for (const [method, path, body] of operatorRoutes) {
      for (const who of [shop.owner, admin]) {
        expectError(await call(method, path, body, { token: who.token, community: shop.community.id }), 403)
      }
      expectError(await call(method, path, body, {}), 401)
    }
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).status).toBe("pending")
    expect(expectOk(await api.get("/api/fees", shop.scoped)).methods.every((m: any) => !m.overridden)).toBe(true)
  })

  it("an owner of two communities cannot reach one's payout through the other (404), nor an operator", async () => {
    const shop = await funded()
    const payout = expectOk(await api.post("/api/payouts", { amount: 100 }, shop.scoped), 201)
    // the same owner creates a second community
    const created = await api.post("/api/communities", { name: `Segunda ${randomUUID().slice(0, 8)}` }, {
      token: shop.owner.token
    })
    const second = expectOk(created, 201) as { id: string }
    const there = as(shop.owner, second)
    expectError(await api.get(`/api/payouts/${payout.id}`, there), 404)
    expectError(await api.post(`/api/payouts/${payout.id}/cancel`, {}, there), 404)
    expect(expectOk(await api.get("/api/payouts", there))).toEqual([])
    expect(expectOk(await api.get("/api/ledger/entries", there))).toEqual([])
    expect(expectOk(await api.get("/api/business-information", there))).toMatchObject({ configured: false })
    expect(expectOk(await api.get("/api/payout-settings", there))).toMatchObject({ configured: false })
    const wrong = `/api/admin/communities/${second.id}/payouts/${payout.id}`
    expectError(await api.post(`${wrong}/in-transit`, {}, ops()), 404)
    expectError(await api.post(`${wrong}/failed`, { reason: "x" }, ops()), 404)
    expect(expectOk(await api.get(`/api/payouts/${payout.id}`, shop.scoped)).status).toBe("pending")
  })
})

describe("money is integer minor units", () => {
  it("fees, interest and net of odd amounts add back exactly, for every method and installment count", () => {
    const amounts = [0, 1, 3, 7, 49, 50, 51, 99, 101, 333, 999, 1001, 4999, 12345, 99999, 1234567, 100_000_000_001]
    const overrides = [defaultFees.CREDIT_CARD, { percentBps: 1, fixed: 1, interestRateBps: 1 }, {
      percentBps: 9999,
      fixed: 999_999,
      interestRateBps: 1000
    }]
    let checked = 0
    for (const amount of amounts) {
      for (const fees of overrides) {
        for (let installments = 1; installments <= 12; installments++) {
          const priced = saleAmounts({
            communityId: CommunityId.make(randomUUID()),
            amount,
            currency: "BRL",
            paymentMethod: "CREDIT_CARD",
            installments
          }, fees)
          if (Either.isLeft(priced)) continue
          const a = priced.right
          for (const value of [a.fee, a.net, a.total, a.interest, a.installmentAmount]) {
            expect(Number.isSafeInteger(value)).toBe(true)
            expect(value).toBeGreaterThanOrEqual(0)
          }
          expect(a.fee + a.net).toBe(amount)
          expect(a.installmentAmount * installments).toBe(a.total)
          expect(a.amount + a.interest).toBe(a.total)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(400)
  })

  it("a sale of an odd amount posts exactly its net, and the simulation gives the same figures", async () => {
    const shop = await funded(1)
    for (const amount of [1, 3, 51, 99, 12345]) {
      const simulated = expectOk(
        await api.post("/api/fees/simulate", { amount, paymentMethod: "BOLETO" }, shop.scoped)
      )
      const priced = await roda.runtime.runPromise(Effect.flatMap(Pricing, (pricing) =>
        pricing.price({
          communityId: CommunityId.make(shop.community.id),
          amount,
          currency: "BRL",
          paymentMethod: "BOLETO",
          installments: 1
        })))
      expect(simulated).toMatchObject({ fee: priced.fee, net: priced.net, total: priced.total })
      expect(priced.fee + priced.net).toBe(amount)
    }
    const before = await balanceOf(shop)
    const sale = await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", amount: 12345, installments: 7 })
    const after = await balanceOf(shop)
    expect(after.pending - before.pending).toBe(sale.amounts.net)
    expect(sale.amounts.fee + sale.amounts.net).toBe(12345)
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })
})

describe("hostile input answers 400 naming the field, never 500", () => {
  it("POST /api/payouts", async () => {
    const shop = await funded()
    const bad: ReadonlyArray<readonly [unknown, string]> = [
      [{ amount: 0 }, "amount"],
      [{ amount: -1 }, "amount"],
      [{ amount: -0.5 }, "amount"],
      [{ amount: 1.5 }, "amount"],
      [{ amount: 1e12 + 1 }, "amount"],
      [{ amount: 1e20 }, "amount"],
      [{ amount: "100" }, "amount"],
      [{ amount: null }, "amount"],
      [{ amount: [100] }, "amount"],
      [{}, "amount"],
      [{ amount: 100, currency: "brl" }, "currency"],
      [{ amount: 100, currency: "REAIS" }, "currency"]
    ]
    for (const [body, param] of bad) expectInvalid(await api.post("/api/payouts", body, shop.scoped), param)
    expectInvalid(await api.call("POST", "/api/payouts", { ...shop.scoped, raw: `{"amount": 1e400}` }), "amount")
    expectInvalid(await api.call("POST", "/api/payouts", { ...shop.scoped, raw: `[1]` }), "body")
    expectError(await api.call("POST", "/api/payouts", { ...shop.scoped, raw: `{"amount":` }), 400)
    // another currency, with no balance in it: the §7 refusal, not a payout
    const other = expectInvalid(await api.post("/api/payouts", { amount: 100, currency: "USD" }, shop.scoped), "amount")
    expect(other.message).toBe("Insufficient balance. Available: 0.00 USD")
    // the largest amount accepted is refused for the balance, not overflowed
    expectInvalid(await api.post("/api/payouts", { amount: 1e12 }, shop.scoped), "amount")
    expect(await payoutRows(shop)).toEqual([])
  })

  it("fees, simulations and operator overrides", async () => {
    const shop = await funded()
    const bad: ReadonlyArray<readonly [unknown, string]> = [
      [{ amount: -1, paymentMethod: "PIX" }, "amount"],
      [{ amount: 1.5, paymentMethod: "PIX" }, "amount"],
      [{ amount: 100_000_000_001, paymentMethod: "PIX" }, "amount"],
      [{ amount: "100", paymentMethod: "PIX" }, "amount"],
      [{ amount: 100, paymentMethod: "CASH" }, "paymentMethod"],
      [{ amount: 100, paymentMethod: "CREDIT_CARD", installments: 0 }, "installments"],
      [{ amount: 100, paymentMethod: "CREDIT_CARD", installments: 13 }, "installments"],
      [{ amount: 100, paymentMethod: "CREDIT_CARD", installments: 2.5 }, "installments"],
      [{ amount: 100, paymentMethod: "PIX", installments: 2 }, "installments"],
      [{ amount: 1, paymentMethod: "CREDIT_CARD", installments: 12 }, "installments"],
      [{ amount: 100, paymentMethod: "PIX", currency: "brl" }, "currency"]
    ]
    for (const [body, param] of bad) expectInvalid(await api.post("/api/fees/simulate", body, shop.scoped), param)
    expectInvalid(
      await api.call("POST", "/api/fees/simulate", {
        ...shop.scoped,
        raw: `{"amount": 1e400, "paymentMethod": "PIX"}`
      }),
      "amount"
    )
    const path = `/api/admin/communities/${shop.community.id}/fee-overrides/CREDIT_CARD`
    for (
      const [body, param] of [
        [{ percentBps: 1.5, fixed: 0 }, "percentBps"],
        [{ percentBps: 0, fixed: -1 }, "fixed"],
        [{ percentBps: 0, fixed: 1_000_001 }, "fixed"],
        [{ percentBps: 0, fixed: 0, interestRateBps: 1.5 }, "interestRateBps"]
      ] as const
    ) expectInvalid(await api.put(path, body, ops()), param)
  })

  it("ledger and payout queries", async () => {
    const shop = await funded()
    for (
      const [query, param] of [
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=1e400", "limit"],
        ["cursor=9999999999999999999", "cursor"],
        ["from=2026-13-45", "from"],
        ["from=275760-09-13", "from"],
        ["from=2026-01-02&to=2026-01-01", "to"],
        ["currency=brl", "currency"],
        ["kind=sales", "kind"],
        ["account=platform", "account"]
      ] as const
    ) expectInvalid(await api.get(`/api/ledger/entries?${query}`, shop.scoped), param, "query")
    expectOk(await api.get("/api/ledger/entries?from=0001-01-01&to=9999-12-31", shop.scoped))
    for (
      const [query, param] of [
        ["limit=0", "limit"],
        ["cursor=abc", "cursor"],
        [`cursor=${Buffer.from(JSON.stringify(["x"])).toString("base64url")}`, "cursor"],
        ["status=PAID", "status"]
      ] as const
    ) {
      expectInvalid(await api.get(`/api/payouts?${query}`, shop.scoped), param, "query")
      expectInvalid(
        await api.get(`/api/admin/communities/${shop.community.id}/payouts?${query}`, ops()),
        param,
        "query"
      )
    }
    expectInvalid(await api.get("/api/payouts/not-a-uuid", shop.scoped), "id", "params")
    expectInvalid(
      await api.post(`/api/admin/communities/${shop.community.id}/payouts/not-a-uuid/paid`, {}, ops()),
      "id",
      "params"
    )
  })
})
