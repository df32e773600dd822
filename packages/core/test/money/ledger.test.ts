import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import {
  DAY,
  entriesOf,
  recordDispute,
  recordSale,
  releaseAnyDue,
  transactionCount,
  unbalancedTransactions
} from "./ledger-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const READERS_ONLY = (role: string) => roleRequired(["owner", "admin", "finance"], role)

interface Line {
  id: string
  kind: string
  account: string
  amount: number
  currency: string
  balance: number
  reference: string
  occurredAt: string
  postedAt: string
}

/** A balance's parts apart from the community's money, when no dispute is open and no sale went through Connect. */
const NOTHING_HELD = { disputed: 0, settledByGateway: 0 }

const balanceOf = async (community: TestCommunity) =>
  expectOk(await api.get("/api/ledger/balance", as(community.owner, community.community)), 200, "Saldo encontrado.")

const statement = async (community: TestCommunity, params = "") =>
  expectOk(await api.get(`/api/ledger/entries${params}`, as(community.owner, community.community))) as Array<Line>

/** Each account's lines, oldest first, must carry the running balance: the previous balance plus the amount. */
const expectRunningBalances = (lines: ReadonlyArray<Line>) => {
  const last = new Map<string, number>()
  for (const line of [...lines].reverse()) {
    const key = `${line.account} ${line.currency}`
    expect(line.balance).toBe((last.get(key) ?? 0) + line.amount)
    last.set(key, line.balance)
  }
}

/** Every ledger balance of the community equals the sum of its entries. */
const expectBalancesMatchEntries = async (communityId: string) => {
  const rows = await query<{ account: string; balance: string; summed: string }>(
    roda,
    (sql) =>
      sql`SELECT b.account, b.balance::text AS balance, coalesce((SELECT sum(e.amount) FROM ledger_entries e
        WHERE e.community_id = b.community_id AND e.account = b.account AND e.currency = b.currency), 0)::text AS summed
      FROM ledger_balances b WHERE b.community_id = ${communityId}`
  )
  expect(rows.length).toBeGreaterThan(0)
  for (const row of rows) expect(row.balance).toBe(row.summed)
}

const dateOf = (at: Date) => at.toISOString().slice(0, 10)

describe("LedgerPosting.recordSale", () => {
  it("posts a card sale in installments as one balanced transaction", async () => {
    const shop = await newCommunity(api, "Razão")
    const { amounts, chargeId } = await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", installments: 2 })
    expect(amounts).toMatchObject({ total: 10436, interest: 436, fee: 548, net: 9452 })
    expect(await entriesOf(roda, shop.community.id)).toEqual([
      { kind: "sale", account: "buyer_payments", currency: "BRL", amount: "-10436", reference: chargeId },
      { kind: "sale", account: "community_pending", currency: "BRL", amount: "9452", reference: chargeId },
      { kind: "sale", account: "platform_fees", currency: "BRL", amount: "548", reference: chargeId },
      { kind: "sale", account: "platform_interest", currency: "BRL", amount: "436", reference: chargeId }
    ])
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 9452,
      available: 0,
      total: 9452,
      ...NOTHING_HELD
    }])
    await expectBalancesMatchEntries(shop.community.id)
  })

  it("a free sale (a 100 % coupon) and a sale eaten by the fee leave nothing pending", async () => {
    const shop = await newCommunity(api, "Grátis")
    await recordSale(roda, shop.community.id, { method: "PIX", amount: 0 })
    const { amounts } = await recordSale(roda, shop.community.id, { method: "BOLETO", amount: 100 })
    expect(amounts).toMatchObject({ fee: 100, net: 0 })
    expect(await transactionCount(roda, shop.community.id, "sale")).toBe(2)
    expect(await transactionCount(roda, shop.community.id, "release")).toBe(0)
    expect((await entriesOf(roda, shop.community.id)).map((row) => [row.account, row.amount])).toEqual([
      ["buyer_payments", "-100"],
      ["platform_fees", "100"]
    ])
    expect(await balanceOf(shop)).toEqual([{ currency: "BRL", pending: 0, available: 0, total: 0, ...NOTHING_HELD }])
  })

  it("is idempotent per charge, also when the same charge arrives concurrently", async () => {
    const shop = await newCommunity(api, "Idempotente")
    const chargeId = `ch_once_${shop.community.id}`
    await Promise.all(
      Array.from({ length: 10 }, () => recordSale(roda, shop.community.id, { method: "BOLETO", chargeId }))
    )
    await recordSale(roda, shop.community.id, { method: "BOLETO", chargeId })
    expect(await transactionCount(roda, shop.community.id, "sale")).toBe(1)
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 9552,
      available: 0,
      total: 9552,
      ...NOTHING_HELD
    }])
    await expectBalancesMatchEntries(shop.community.id)
  })

  it("schedules releases: PIX at once, boleto after 1 day, card after 30 days from payment", async () => {
    const shop = await newCommunity(api, "Liberações")
    const now = Date.now()
    const id = shop.community.id
    await recordSale(roda, id, { method: "PIX", paidAt: new Date(now - 60_000) }) // net 9801, released at once
    await recordSale(roda, id, { method: "BOLETO", paidAt: new Date(now) }) // 9552, pending
    await recordSale(roda, id, { method: "BOLETO", paidAt: new Date(now - 2 * DAY) }) // 9552, due
    await recordSale(roda, id, { method: "CREDIT_CARD", paidAt: new Date(now - 29 * DAY) }) // 9452, pending
    await recordSale(roda, id, { method: "CREDIT_CARD", paidAt: new Date(now - 31 * DAY) }) // 9452, due
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 9552 + 9452,
      available: 9801 + 9552 + 9452,
      total: 9801 + 9552 * 2 + 9452 * 2,
      ...NOTHING_HELD
    }])
    expect(await transactionCount(roda, id, "release")).toBe(3)
    const schedule = await query<{ days: number; released: boolean }>(
      roda,
      (sql) =>
        sql`SELECT extract(epoch FROM r.release_at - t.occurred_at)::int / 86400 AS days,
          r.released_at IS NOT NULL AS released
        FROM ledger_releases r JOIN ledger_transactions t ON t.id = r.sale_transaction_id
        WHERE r.community_id = ${id} ORDER BY t.occurred_at`
    )
    expect(schedule.map((row) => [row.days, row.released])).toEqual([
      [30, true],
      [30, false],
      [1, true],
      [0, true],
      [1, false]
    ])
    expect(await unbalancedTransactions(roda, id)).toEqual([])
    await expectBalancesMatchEntries(id)
  })

  it("a release that falls due after the sale is posted at the next read", async () => {
    const shop = await newCommunity(api, "Vencimento")
    const paidAt = new Date(Date.now() - 31 * DAY)
    await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", paidAt, postedAt: paidAt })
    expect(await transactionCount(roda, shop.community.id, "release")).toBe(0)
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 0,
      available: 9452,
      total: 9452,
      ...NOTHING_HELD
    }])
    const [release] = await statement(shop, "?kind=release&account=community_available")
    expect(release).toMatchObject({ kind: "release", amount: 9452, balance: 9452 })
    expect(release!.occurredAt).toBe(new Date(paidAt.getTime() + 30 * DAY).toISOString())
    expect(Date.parse(release!.postedAt)).toBeGreaterThan(Date.now() - 60_000)
  })

  it("concurrent reads post each due release once", async () => {
    const shop = await newCommunity(api, "Concorrência")
    const paidAt = new Date(Date.now() - 31 * DAY)
    for (let index = 0; index < 5; index++) {
      await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", paidAt, postedAt: paidAt })
    }
    const scoped = as(shop.owner, shop.community)
    const replies = await Promise.all(
      Array.from(
        { length: 20 },
        (_, index) => api.get(index % 2 === 0 ? "/api/ledger/balance" : "/api/ledger/entries", scoped)
      )
    )
    for (const reply of replies) expectOk(reply)
    expect(await transactionCount(roda, shop.community.id, "release")).toBe(5)
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 0,
      available: 5 * 9452,
      total: 5 * 9452,
      ...NOTHING_HELD
    }])
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
    await expectBalancesMatchEntries(shop.community.id)
  })

  it("sales and releases at the same time lock balances in one order (no deadlock)", async () => {
    const shop = await newCommunity(api, "Movimento")
    const paidAt = new Date(Date.now() - 31 * DAY)
    for (let index = 0; index < 5; index++) {
      await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", paidAt, postedAt: paidAt })
    }
    const scoped = as(shop.owner, shop.community)
    await Promise.all([
      ...Array.from({ length: 10 }, () => recordSale(roda, shop.community.id, { method: "PIX" })),
      ...Array.from({ length: 10 }, () => api.get("/api/ledger/balance", scoped).then((reply) => expectOk(reply)))
    ])
    expect(await transactionCount(roda, shop.community.id, "release")).toBe(15)
    expect(await balanceOf(shop)).toEqual([{
      currency: "BRL",
      pending: 0,
      available: 5 * 9452 + 10 * 9801,
      total: 5 * 9452 + 10 * 9801,
      ...NOTHING_HELD
    }])
    await expectBalancesMatchEntries(shop.community.id)
  })

  it("a background job posts due releases of every community", async () => {
    const first = await newCommunity(api, "Tarefa A")
    const second = await newCommunity(api, "Tarefa B")
    const paidAt = new Date(Date.now() - 2 * DAY)
    for (const shop of [first, second]) {
      await recordSale(roda, shop.community.id, { method: "BOLETO", paidAt, postedAt: paidAt })
    }
    while ((await releaseAnyDue(roda)) === 200) {
      // a full batch: there may be more
    }
    for (const shop of [first, second]) {
      expect(await transactionCount(roda, shop.community.id, "release")).toBe(1)
    }
    expect(await balanceOf(first)).toEqual([{
      currency: "BRL",
      pending: 0,
      available: 9552,
      total: 9552,
      ...NOTHING_HELD
    }])
  })

  it("the database keeps the ledger append-only and balanced", async () => {
    const shop = await newCommunity(api, "Imutável")
    await recordSale(roda, shop.community.id, { method: "PIX" })
    const id = shop.community.id
    await expect(query(roda, (sql) => sql`UPDATE ledger_entries SET amount = amount + 1 WHERE community_id = ${id}`))
      .rejects.toThrow()
    await expect(query(roda, (sql) => sql`DELETE FROM ledger_entries WHERE community_id = ${id}`)).rejects.toThrow()
    await expect(query(roda, (sql) => sql`UPDATE ledger_transactions SET description = 'x' WHERE community_id = ${id}`))
      .rejects.toThrow()
    await expect(query(roda, (sql) => sql`DELETE FROM ledger_transactions WHERE community_id = ${id}`))
      .rejects.toThrow()
    // one more entry in an existing transaction unbalances it: refused when the statement commits
    await expect(
      query(
        roda,
        (sql) =>
          sql`INSERT INTO ledger_entries (id, community_id, transaction_id, kind, account, currency, amount,
          balance_after, posted_at)
        SELECT gen_random_uuid(), community_id, transaction_id, kind, 'platform_fees', currency, 1, 0, now()
        FROM ledger_entries WHERE community_id = ${id} LIMIT 1`
      )
    ).rejects.toThrow()
    expect(await entriesOf(roda, id)).toHaveLength(5)
    expect(await unbalancedTransactions(roda, id)).toEqual([])
  })
})

describe("GET /api/ledger/entries", () => {
  let shop: TestCommunity
  let pix: string
  let card: string
  let boleto: string
  const tenDaysAgo = new Date(Date.now() - 10 * DAY)
  beforeAll(async () => {
    shop = await newCommunity(api, "Extrato")
    // booked ten days ago; its release (D+1) is posted at the first read
    boleto = (await recordSale(roda, shop.community.id, { method: "BOLETO", postedAt: tenDaysAgo })).chargeId
    pix = (await recordSale(roda, shop.community.id, { method: "PIX", description: "Pix" })).chargeId
    card = (await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", installments: 2 })).chargeId
  })

  it("lists the community's accounts newest first with running balances", async () => {
    const lines = expectOk(
      await api.get("/api/ledger/entries", as(shop.owner, shop.community)),
      200,
      "Extrato encontrado."
    ) as Array<Line>
    expect(lines.map((line) => [line.kind, line.account, line.amount, line.balance, line.reference])).toEqual([
      ["release", "community_available", 9552, 9552 + 9801, boleto],
      ["release", "community_pending", -9552, 9452, boleto],
      ["sale", "community_pending", 9452, 9552 + 9452, card],
      ["release", "community_available", 9801, 9801, pix],
      ["release", "community_pending", -9801, 9552, pix],
      ["sale", "community_pending", 9801, 9552 + 9801, pix],
      ["sale", "community_pending", 9552, 9552, boleto]
    ])
    expectRunningBalances(lines)
    expect(lines[5]).toMatchObject({ currency: "BRL", description: "Pix" })
    expect(lines[6]!.postedAt).toBe(tenDaysAgo.toISOString())
  })

  it("filters by kind, account and currency", async () => {
    expect((await statement(shop, "?kind=sale")).map((line) => line.amount)).toEqual([9452, 9801, 9552])
    expect((await statement(shop, "?kind=release")).map((line) => line.amount)).toEqual([9552, -9552, 9801, -9801])
    const fees = await statement(shop, "?account=platform_fees")
    expect(fees.map((line) => [line.amount, line.balance])).toEqual([[548, 1195], [199, 647], [448, 448]])
    const interest = await statement(shop, "?account=platform_interest")
    expect(interest.map((line) => [line.amount, line.balance])).toEqual([[436, 436]])
    const clearing = await statement(shop, "?account=buyer_payments&kind=sale")
    expect(clearing.map((line) => line.balance)).toEqual([-30436, -20000, -10000])
    expect(await statement(shop, "?currency=USD")).toEqual([])
  })

  it("filters by posting date (whole UTC days, or instants)", async () => {
    const today = dateOf(new Date())
    const then = dateOf(tenDaysAgo)
    const old = await statement(shop, `?from=${then}&to=${then}`)
    expect(old.map((line) => [line.kind, line.reference])).toEqual([["sale", boleto]])
    expect(await statement(shop, `?to=${then}`)).toHaveLength(1)
    expect(await statement(shop, `?from=${today}`)).toHaveLength(6)
    const instant = tenDaysAgo.toISOString()
    expect(await statement(shop, `?to=${encodeURIComponent(instant)}`)).toHaveLength(1)
    expect(await statement(shop, `?from=${encodeURIComponent(new Date(tenDaysAgo.getTime() + 1).toISOString())}`))
      .toHaveLength(6)
    expect(await statement(shop, `?from=2099-01-01`)).toEqual([])
  })

  it("pages with a cursor, without repeating or losing lines", async () => {
    const all = await statement(shop, "?limit=100")
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(
        `/api/ledger/entries?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        as(shop.owner, shop.community)
      )
      const lines = expectOk(reply) as Array<Line>
      expect(lines.length).toBeLessThanOrEqual(3)
      seen.push(...lines.map((line) => line.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor)
    expect(seen).toEqual(all.map((line) => line.id))
    expect(seen).toHaveLength(7)
  })

  it("bad filters answer 400 naming the parameter", async () => {
    const scoped = as(shop.owner, shop.community)
    const bad = (params: string) => api.get(`/api/ledger/entries?${params}`, scoped)
    expectInvalid(await bad("cursor=nonsense"), "cursor", "query")
    expectInvalid(await bad("from=yesterday"), "from", "query")
    expectInvalid(await bad("to=2030-13-45"), "to", "query")
    expectInvalid(await bad("from=2030-05-02&to=2030-05-01"), "to", "query")
    expectInvalid(await bad("kind=chargeback"), "kind", "query")
    expectInvalid(await bad("account=cash"), "account", "query")
    expectInvalid(await bad("currency=real"), "currency", "query")
    expectInvalid(await bad("limit=0"), "limit", "query")
    expectInvalid(await bad("limit=101"), "limit", "query")
  })

  it("owner, admin and finance read; moderator and member do not", async () => {
    for (const role of ["admin", "finance"] as const) {
      const person = await shop.addMember(role)
      expect(expectOk(await api.get("/api/ledger/entries", as(person, shop.community)))).toHaveLength(7)
      expectOk(await api.get("/api/ledger/balance", as(person, shop.community)))
    }
    for (const role of ["moderator", "member"] as const) {
      const person = await shop.addMember(role)
      expectError(await api.get("/api/ledger/entries", as(person, shop.community)), 403, READERS_ONLY(role))
      expectError(await api.get("/api/ledger/balance", as(person, shop.community)), 403, READERS_ONLY(role))
    }
    expectError(await api.get("/api/ledger/entries", { community: shop.community.id }), 401)
    expectError(await api.get("/api/ledger/balance", { token: shop.owner.token }), 400)
  })

  it("another community sees none of it", async () => {
    const other = await newCommunity(api, "Vizinha")
    expect(await statement(other)).toEqual([])
    expect(await balanceOf(other)).toEqual([{ currency: "BRL", pending: 0, available: 0, total: 0, ...NOTHING_HELD }])
    // not a member of the shop: the header cannot reach its ledger
    expectError(await api.get("/api/ledger/entries", as(other.owner, shop.community)), 403)
  })
})

describe("GET /api/ledger/balance", () => {
  it("pending and available per currency", async () => {
    const shop = await newCommunity(api, "Moedas")
    await recordSale(roda, shop.community.id, { method: "PIX" })
    await recordSale(roda, shop.community.id, { method: "CREDIT_CARD", currency: "USD" })
    expect(await balanceOf(shop)).toEqual([
      { currency: "BRL", pending: 0, available: 9801, total: 9801, ...NOTHING_HELD },
      { currency: "USD", pending: 9452, available: 0, total: 9452, ...NOTHING_HELD }
    ])
    const usd = await statement(shop, "?currency=USD")
    expect(usd.map((line) => [line.account, line.amount, line.balance])).toEqual([["community_pending", 9452, 9452]])
    expect(await unbalancedTransactions(roda, shop.community.id)).toEqual([])
  })

  it("shows what open disputes hold and what the gateway settled to the community's own account, apart", async () => {
    const shop = await newCommunity(api, "Disputas")
    const id = shop.community.id
    const { chargeId } = await recordSale(roda, id, { method: "PIX" }) // 9801 available at once
    await recordSale(roda, id, { method: "PIX", settledByGateway: true }) // 9801 to the connected account
    expect(await balanceOf(shop)).toEqual([
      { currency: "BRL", pending: 0, available: 9801, total: 9801, disputed: 0, settledByGateway: 9801 }
    ])
    const disputeId = `du_${crypto.randomUUID()}`
    expect(await recordDispute(roda, { communityId: id, chargeId, disputeId, move: "hold", amount: 10000 })).toBe(true)
    // held at once: more than available (the gross), so available goes below zero and no payout can take it
    expect(await balanceOf(shop)).toEqual([
      {
        currency: "BRL",
        pending: 0,
        available: 9801 - 10000,
        total: 9801 - 10000,
        disputed: 10000,
        settledByGateway: 9801
      }
    ])
    await recordDispute(roda, { communityId: id, chargeId, disputeId, move: "release", amount: 10000 })
    expect(await balanceOf(shop)).toEqual([
      { currency: "BRL", pending: 0, available: 9801, total: 9801, disputed: 0, settledByGateway: 9801 }
    ])
    expect(await unbalancedTransactions(roda, id)).toEqual([])
  })
})
