import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommunityId, LedgerPosting, type Roda } from "../../src/index"
import { expectOk } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { subscribed, unbalanced } from "./subscriptions-support"

// A subscription's first charge is the checkout's charge. The team gives it back by cancelling the
// subscription with a refund; the sales list holds one-time purchases only, so it cannot refund
// that charge a second time. The ledger keeps the last word: it counts every refund of a charge.
let roda: Roda
let api: Client

beforeAll(() => {
  roda = startRoda({ runJobs: false })
  api = client(roda)
})
afterAll(() => roda.dispose())

type Made = Awaited<ReturnType<typeof subscribed>>

const firstCharge = async (made: Made) => {
  const [row] = await query<{ id: string }>(
    roda,
    (sql) =>
      sql`SELECT id FROM subscription_billings WHERE subscription_id = ${made.subscriptionId}
      ORDER BY created_at LIMIT 1`
  )
  return row!.id
}

const leftToRefund = (made: Made, chargeId: string) =>
  roda.runtime.runPromise(
    Effect.flatMap(LedgerPosting, (ledger) => ledger.refundable(CommunityId.make(made.community.id), chargeId))
  )

const cancelWithRefund = (made: Made) =>
  api.post(`/api/manage/subscriptions/${made.subscriptionId}/cancel`, { when: "now", refund: "full" }, made.scoped)

describe("refunds of a subscription's first charge", () => {
  it("are not offered by the sales list, which holds one-time purchases only", async () => {
    const made = await subscribed(api)
    expect(expectOk(await api.get("/api/manage/purchases", made.scoped))).toEqual([])
  })

  it("leave nothing to refund in the ledger once the subscription was cancelled with a full refund", async () => {
    const made = await subscribed(api, "Bruno Membro")
    const charge = await firstCharge(made)
    expect(await leftToRefund(made, charge)).toEqual(Option.some(made.monthly.price))
    const cancelled = expectOk(await cancelWithRefund(made))
    expect(cancelled.refunded).toBe(made.monthly.price)
    expect(await leftToRefund(made, charge)).toEqual(Option.some(0))
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})
