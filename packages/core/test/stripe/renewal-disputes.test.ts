import { describe, expect, it } from "vitest"
import { DAY, runJobs, signIn, subscribed, unbalanced } from "../commerce/subscriptions-support"
import { as } from "../support/community"
import { expectCreated, expectInvalid, expectOk } from "../support/envelope"
import { outboxFor } from "../support/outbox"
import { platformAdmin } from "../support/selling"
import { query } from "../support/sql"
import { DISPUTE_FEE, disputeEvent, newDisputeId } from "./support/disputes"
import { postStripeEvent } from "./support/gateways"
import { insufficient, renewalSuite } from "./support/suite"

/**
 * Renewals (a subscription's own charges, made by Roda's jobs off-session) are disputed and
 * settled through Stripe Connect as checkout's sales are (issue 52, items 5 and 6).
 */
const { time, fake, roda, api } = await renewalSuite()

/** The monthly option's price: what its renewal charges. */
const RENEWAL = 4990

type Made = Awaited<ReturnType<typeof subscribed>>

/** The event's signing time: the server's clock, which the tests move. */
const at = () => Math.floor(time.now() / 1000)

/** The owner's scope, signed in again (tokens live 7 days of the clock the tests move). */
const owner = async (made: Made) => as({ token: await signIn(api, made.owner.email) }, made.community)

const balanceOf = async (made: Made) =>
  (expectOk(await api.get("/api/payouts/balance", await owner(made))) as Array<any>)[0]

const statusOf = async (id: string) =>
  (await query<{ status: string }>(roda, (sql) => sql`SELECT status FROM subscriptions WHERE id = ${id}`))[0]!.status

/** A member subscribed by card, a month on: the renewal charged off-session by the job and paid. */
const renewed = async (name: string, connectAccount?: string) => {
  const made = await subscribed(api, name)
  if (connectAccount !== undefined) {
    const path = `/api/admin/communities/${made.community.id}/gateway-account`
    expectOk(await api.put(path, { accountId: connectAccount }, { token: await platformAdmin(api) }))
  }
  time.advance(32 * DAY)
  await runJobs(roda)
  const [renewal] = await query<{ id: string; net: number }>(
    roda,
    (sql) =>
      sql`SELECT id, net::float8 AS net FROM subscription_billings
        WHERE subscription_id = ${made.subscriptionId} AND reason = 'renewal' AND status = 'paid'`
  )
  expect(renewal).toBeDefined()
  return { made, renewal: renewal!, intent: fake.intentFor(renewal!.id)! }
}

/** A dispute of a renewal, signed at the server's clock. */
const renewalDispute = (intent: Record<string, any>, disputeId: string, step: "created" | "won" | "lost") =>
  disputeEvent(intent, disputeId, step, RENEWAL, at())

const post = async (event: Record<string, any>) => expectOk(await postStripeEvent(api, event, { timestamp: at() }))

const ledgerKinds = async (reference: string) =>
  (await query<{ kind: string }>(
    roda,
    (sql) => sql`SELECT kind FROM ledger_transactions WHERE reference = ${reference} ORDER BY posted_at, id`
  )).map((row) => row.kind).filter((kind) => kind !== "release")

const disputeRow = async (disputeId: string) =>
  (await query<{ status: string; held: string; chargeId: string }>(
    roda,
    (sql) => sql`SELECT status, held::text AS held, charge_id FROM disputes WHERE dispute_id = ${disputeId}`
  ))[0]

const ownerMails = async (made: Made) =>
  (await outboxFor(roda, made.owner.email)).filter((mail) => mail.kind.startsWith("dispute."))

describe("Stripe disputes of subscription renewals hold money as checkout's do", () => {
  it("holds a disputed renewal at once: a payout cannot take it; won, the money is released", async () => {
    const { made, renewal, intent } = await renewed("Rosa Renovada")
    const before = await balanceOf(made)
    expect(before.disputed).toBe(0)
    const disputeId = newDisputeId()
    expect(await post(renewalDispute(intent, disputeId, "created"))).toMatchObject({ status: "paid", duplicate: false })
    const held = await balanceOf(made)
    expect(held).toMatchObject({ available: before.available - RENEWAL, disputed: RENEWAL, pending: before.pending })
    expect(held.total).toBe(held.pending + held.available + held.inTransit + held.disputed)
    // the held money is not available: a payout of the balance before the dispute is refused (the
    // renewal's money is still pending, so the hold takes available below zero, shown as 0)
    const payout = await api.post("/api/payouts", { amount: before.available - 200 }, await owner(made))
    expect(expectInvalid(payout, "amount").message).toBe(insufficient(Math.max(0, before.available - RENEWAL)))
    expect(await disputeRow(disputeId)).toEqual({ status: "open", held: String(RENEWAL), chargeId: renewal.id })
    expect(await ledgerKinds(renewal.id)).toEqual(["sale", "dispute_hold"])
    const opened = await ownerMails(made)
    expect(opened.map((mail) => mail.kind)).toEqual(["dispute.opened"])
    expect(opened[0]!.body).toContain(renewal.id)
    // the member keeps the subscription while the dispute is open
    expect(await statusOf(made.subscriptionId)).toBe("active")

    expect(await post(renewalDispute(intent, disputeId, "won"))).toMatchObject({ status: "paid" })
    expect(await balanceOf(made)).toMatchObject({ available: before.available, disputed: 0, total: before.total })
    expect(await disputeRow(disputeId)).toMatchObject({ status: "won", held: "0" })
    expect(await ledgerKinds(renewal.id)).toEqual(["sale", "dispute_hold", "dispute_release"])
    expect(await statusOf(made.subscriptionId)).toBe("active")
    expect((await ownerMails(made)).map((mail) => mail.kind)).toEqual(["dispute.opened", "dispute.closed"])
    expectCreated(await api.post("/api/payouts", { amount: before.available - 200 }, await owner(made)))
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })

  it("books a lost renewal dispute once: released, taken back as the billing's chargeback with the fee; access ends", async () => {
    const { made, renewal, intent } = await renewed("Luana Perdida")
    const before = await balanceOf(made)
    const disputeId = newDisputeId()
    await post(renewalDispute(intent, disputeId, "created"))
    const lost = renewalDispute(intent, disputeId, "lost")
    expect(await post(lost)).toMatchObject({ status: "refunded" })
    // the same close again, under its own and another event id, and a late won: nothing more
    expect(await post(lost)).toMatchObject({ duplicate: true })
    await post(renewalDispute(intent, disputeId, "lost"))
    await post(renewalDispute(intent, disputeId, "won"))
    expect(await ledgerKinds(renewal.id)).toEqual(["sale", "dispute_hold", "dispute_release", "refund", "dispute_fee"])
    expect(await disputeRow(disputeId)).toMatchObject({ status: "lost", held: "0" })
    const after = await balanceOf(made)
    expect(after.disputed).toBe(0)
    // the community's share of the renewal goes back, and the dispute fee on top
    expect(after.total).toBe(before.total - renewal.net - DISPUTE_FEE)
    const [billing] = await query<{ status: string; refundedAmount: number }>(
      roda,
      (sql) =>
        sql`SELECT status, refunded_amount::float8 AS refunded_amount FROM subscription_billings WHERE id = ${renewal.id}`
    )
    expect(billing).toEqual({ status: "refunded", refundedAmount: RENEWAL })
    expect(await statusOf(made.subscriptionId)).toBe("canceled")
    expect((await ownerMails(made)).map((mail) => mail.kind)).toEqual(["dispute.opened", "dispute.closed"])
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})

describe("One payout path per renewal (Stripe Connect)", () => {
  it("settles a renewal charged through Connect to the gateway: never paid out by Roda, its dispute holds nothing", async () => {
    const { made, renewal, intent } = await renewed("Carla Conectada", "acct_1RodaConnectRenewal")
    expect(intent.transfer_data).toEqual({ destination: "acct_1RodaConnectRenewal" })
    const settled = await query<{ amount: string }>(
      roda,
      (sql) =>
        sql`SELECT e.amount::text AS amount FROM ledger_entries e
          JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE t.reference = ${renewal.id} AND e.account = 'community_gateway_settled'`
    )
    expect(settled).toEqual([{ amount: String(renewal.net) }])
    const balance = await balanceOf(made)
    expect(balance.settledByGateway).toBe(renewal.net)
    // the first charge (before the account) is Roda's to pay out; the renewal's money is not
    const refused = await api.post(
      "/api/payouts",
      { amount: balance.available + renewal.net - 200 },
      await owner(made)
    )
    expect(expectInvalid(refused, "amount").message).toBe(insufficient(balance.available))

    await post(renewalDispute(intent, newDisputeId(), "created"))
    expect(await balanceOf(made)).toMatchObject({
      available: balance.available,
      disputed: 0,
      settledByGateway: renewal.net
    })
    expect(await unbalanced(roda, made.community.id)).toEqual([])
  })
})
