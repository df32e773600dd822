import { describe, expect, it } from "vitest"
import { shop } from "../commerce/checkout-support"
import { unbalancedTransactions } from "../money/ledger-support"
import { expectCreated, expectInvalid, expectOk } from "../support/envelope"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import { DISPUTE_FEE, disputeEvent, newDisputeId } from "./support/disputes"
import { postStripeEvent } from "./support/gateways"
import { insufficient, type Shop, stripeSuite } from "./support/suite"

const { api, balanceOf, pixSale, roda } = await stripeSuite()

/** What a dispute opened, then lost, books, in order (a release of the hold, then the chargeback). */
const LOST = ["sale", "dispute_hold", "dispute_release", "refund", "dispute_fee"]

const ledgerKinds = async (chargeId: string) =>
  (await query<{ kind: string }>(
    roda,
    (sql) => sql`SELECT kind FROM ledger_transactions WHERE reference = ${chargeId} ORDER BY posted_at, id`
  )).map((row) => row.kind).filter((kind) => kind !== "release")

const chargebacks = (chargeId: string) =>
  query<{ amount: string }>(
    roda,
    (sql) => sql`SELECT amount::text AS amount FROM refunds WHERE charge_id = ${chargeId} AND kind = 'chargeback'`
  )

const ownerMails = async (made: Shop) =>
  (await outboxFor(roda, made.owner.email)).filter((mail) => mail.kind.startsWith("dispute."))

describe("Stripe disputes hold money", () => {
  it("holds the disputed amount at once: a payout cannot take it; the owners are told", async () => {
    const made = await shop(api)
    const first = await pixSale(made)
    const second = await pixSale(made)
    expect((await balanceOf(made)).available).toBe(first.net + second.net)
    const disputeId = newDisputeId()
    const opened = await postStripeEvent(api, disputeEvent(first.intent, disputeId, "created"))
    expect(expectOk(opened)).toMatchObject({ chargeId: first.chargeId, status: "paid", duplicate: false })
    const held = await balanceOf(made)
    const available = first.net + second.net - 10000
    expect(held).toMatchObject({ available, disputed: 10000, settledByGateway: 0 })
    expect(held.total).toBe(held.pending + held.available + held.inTransit + held.disputed)
    // the held money is not available: a payout of the old available balance is refused
    const tooMuch = await api.post("/api/payouts", { amount: first.net + second.net - 200 }, made.scoped)
    expect(expectInvalid(tooMuch, "amount").message).toBe(insufficient(available))
    expectCreated(await api.post("/api/payouts", { amount: available - 200 }, made.scoped))
    const mails = await ownerMails(made)
    expect(mails.map((mail) => mail.kind)).toEqual(["dispute.opened"])
    expect(mails[0]!.body).toContain(first.chargeId)
    expect(await ledgerKinds(first.chargeId)).toEqual(["sale", "dispute_hold"])
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
  })

  it("releases the held money when the dispute is won (the fee Stripe gave back is not charged)", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const disputeId = newDisputeId()
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "created")))
    expect(expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "won")))).toMatchObject({
      chargeId: sale.chargeId,
      status: "paid"
    })
    expect(await balanceOf(made)).toMatchObject({ available: sale.net, disputed: 0, total: sale.net })
    expect(await ledgerKinds(sale.chargeId)).toEqual(["sale", "dispute_hold", "dispute_release"])
    expect(await chargebacks(sale.chargeId)).toEqual([])
    expect((await ownerMails(made)).map((mail) => mail.kind)).toEqual(["dispute.opened", "dispute.closed"])
    const [row] = await query<{ status: string; held: string }>(
      roda,
      (sql) => sql`SELECT status, held::text AS held FROM disputes WHERE dispute_id = ${disputeId}`
    )
    expect(row).toEqual({ status: "won", held: "0" })
  })

  it("takes a lost dispute back with the dispute fee Stripe charged, every step balanced", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const disputeId = newDisputeId()
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "created")))
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "lost")))
    // the community's share of the sale (its net) goes back with the chargeback, and the fee on top
    expect(await balanceOf(made)).toMatchObject({ available: -DISPUTE_FEE, disputed: 0, pending: 0 })
    expect(await chargebacks(sale.chargeId)).toEqual([{ amount: "10000" }])
    expect(await ledgerKinds(sale.chargeId)).toEqual(LOST)
    const fees = await query<{ amount: string }>(
      roda,
      (sql) =>
        sql`SELECT amount::text AS amount FROM ledger_entries WHERE community_id = ${made.community.id}
          AND account = 'gateway_dispute_fees'`
    )
    expect(fees).toEqual([{ amount: String(DISPUTE_FEE) }])
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
    const closed = (await ownerMails(made)).filter((mail) => mail.kind === "dispute.closed")
    expect(closed).toHaveLength(1)
    expect(closed[0]!.body).toContain("Dispute fee: 15.00 BRL")
  })

  it("books a close seen before its opening once, without a hold; the late opening changes nothing", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const disputeId = newDisputeId()
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "lost")))
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "created")))
    expect(await balanceOf(made)).toMatchObject({ available: -DISPUTE_FEE, disputed: 0 })
    expect(await ledgerKinds(sale.chargeId)).toEqual(["sale", "refund", "dispute_fee"])
    expect((await ownerMails(made)).map((mail) => mail.kind)).toEqual(["dispute.closed"])

    // won first, then the opening: nothing held, nothing taken
    const other = await pixSale(made)
    const second = newDisputeId()
    expectOk(await postStripeEvent(api, disputeEvent(other.intent, second, "won")))
    expectOk(await postStripeEvent(api, disputeEvent(other.intent, second, "created")))
    expect(await ledgerKinds(other.chargeId)).toEqual(["sale"])
    expect(await balanceOf(made)).toMatchObject({ available: other.net - DISPUTE_FEE, disputed: 0 })
  })

  it("books repeated events once: the same event again, and the same step under another event id", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const disputeId = newDisputeId()
    const created = disputeEvent(sale.intent, disputeId, "created")
    expectOk(await postStripeEvent(api, created))
    expect(expectOk(await postStripeEvent(api, created)).duplicate).toBe(true)
    expect(expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "created"))).duplicate).toBe(
      false
    )
    const lost = disputeEvent(sale.intent, disputeId, "lost")
    expectOk(await postStripeEvent(api, lost))
    expectOk(await postStripeEvent(api, lost))
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "lost")))
    // a won after the loss (an appeal is not followed) changes nothing either
    expectOk(await postStripeEvent(api, disputeEvent(sale.intent, disputeId, "won")))
    expect(await ledgerKinds(sale.chargeId)).toEqual(LOST)
    expect(await chargebacks(sale.chargeId)).toHaveLength(1)
    expect(await balanceOf(made)).toMatchObject({ available: -DISPUTE_FEE, disputed: 0 })
    expect((await ownerMails(made)).map((mail) => mail.kind)).toEqual(["dispute.opened", "dispute.closed"])
  })

  it("books one event delivered many times at once once", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const disputeId = newDisputeId()
    const created = disputeEvent(sale.intent, disputeId, "created")
    const answers = await Promise.all(Array.from({ length: 8 }, () => postStripeEvent(api, created)))
    const bodies = answers.map((answer) => expectOk(answer))
    expect(bodies.filter((body) => body.duplicate === false)).toHaveLength(1)
    // distinct deliveries of one step, and the close racing them
    await Promise.all([
      ...Array.from({ length: 4 }, () => postStripeEvent(api, disputeEvent(sale.intent, disputeId, "created"))),
      ...Array.from({ length: 4 }, () => postStripeEvent(api, disputeEvent(sale.intent, disputeId, "lost")))
    ]).then((all) => all.forEach((answer) => expectOk(answer)))
    const kinds = await ledgerKinds(sale.chargeId)
    expect(kinds.filter((kind) => kind === "dispute_hold")).toHaveLength(1)
    expect(kinds.filter((kind) => kind === "refund")).toHaveLength(1)
    expect(kinds.filter((kind) => kind === "dispute_fee")).toHaveLength(1)
    expect(await balanceOf(made)).toMatchObject({ available: -DISPUTE_FEE, disputed: 0 })
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
  })

  it("keeps the old history working: a lost close for a dispute never seen open is a chargeback", async () => {
    const made = await shop(api)
    const sale = await pixSale(made)
    const lost = disputeEvent(sale.intent, newDisputeId(), "lost")
    // a dispute closed without balance transactions in the event: no fee is invented
    lost.data.object.balance_transactions = []
    expect(expectOk(await postStripeEvent(api, lost))).toMatchObject({ chargeId: sale.chargeId })
    expect(await chargebacks(sale.chargeId)).toEqual([{ amount: "10000" }])
    expect(await balanceOf(made)).toMatchObject({ available: 0, disputed: 0 })
    expect(await ledgerKinds(sale.chargeId)).toEqual(["sale", "refund"])
  })
})
