import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { cardCheckout, shop } from "../commerce/checkout-support"
import { unbalancedTransactions } from "../money/ledger-support"
import { expectCreated, expectInvalid, expectOk } from "../support/envelope"
import { platformAdmin } from "../support/selling"
import { stripeEvent } from "./support/fakeStripe"
import { postStripeEvent } from "./support/gateways"
import { insufficient, type Shop, stripeSuite } from "./support/suite"

const { api, balanceOf, fake, netOf, pixSale, roda } = await stripeSuite()

const gatewayAccount = async (made: Shop, accountId: string | null) => {
  const operator = await platformAdmin(api)
  const path = `/api/admin/communities/${made.community.id}/gateway-account`
  if (accountId === null) expectOk(await api.del(path, { token: operator }))
  else expectOk(await api.put(path, { accountId }, { token: operator }))
}

describe("One payout path per sale (Stripe Connect)", () => {
  it("keeps a Connect sale out of the balance Roda pays out; a platform sale still pays out", async () => {
    const made = await shop(api)
    await gatewayAccount(made, "acct_1RodaConnectPix")
    const connected = await pixSale(made)
    expect(connected.intent.transfer_data).toEqual({ destination: "acct_1RodaConnectPix" })
    const card = expectCreated(await api.post("/api/checkout", cardCheckout(made.product.id), made.scoped))
    expect(card.status).toBe("paid")
    const settled = connected.net + await netOf(card.chargeId)
    expect(await balanceOf(made)).toMatchObject({
      pending: 0,
      available: 0,
      disputed: 0,
      total: 0,
      settledByGateway: settled
    })
    // a manual payout of the Connect money is refused: Stripe pays it into the connected account
    const refused = await api.post("/api/payouts", { amount: connected.net - 200 }, made.scoped)
    expect(expectInvalid(refused, "amount").message).toBe(insufficient(0))

    // the account removed, the next sale is the platform's: it pays out as before, the Connect money never
    await gatewayAccount(made, null)
    const own = await pixSale(made)
    expect(own.intent.transfer_data).toBeNull()
    expect(await balanceOf(made)).toMatchObject({ available: own.net, total: own.net, settledByGateway: settled })
    const tooMuch = await api.post("/api/payouts", { amount: own.net - 200 + 1 }, made.scoped)
    expect(expectInvalid(tooMuch, "amount").message).toBe(insufficient(own.net))
    const payout = expectCreated(await api.post("/api/payouts", { amount: own.net - 200 }, made.scoped))
    expect(payout).toMatchObject({ amount: own.net - 200, status: "pending" })
    expect(await balanceOf(made)).toMatchObject({ available: 0, inTransit: own.net - 200, settledByGateway: settled })
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
  })

  it("takes a Connect sale's refund from the connected account's side, not from Roda's balance", async () => {
    const made = await shop(api)
    await gatewayAccount(made, "acct_1RodaConnectRefund")
    const sale = expectCreated(await api.post("/api/checkout", cardCheckout(made.product.id), made.scoped))
    const net = await netOf(sale.chargeId)
    const refund = expectOk(
      await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "desistiu" }, made.scoped)
    )
    expect(refund).toMatchObject({ amount: 10000, full: true })
    expect(await balanceOf(made)).toMatchObject({ pending: 0, available: 0, settledByGateway: 0 })
    const sent = fake.calls("POST", "/v1/refunds").find((r) => r.params.metadata?.roda_charge_id === sale.chargeId)!
    expect(sent.params).toMatchObject({ reverse_transfer: "true", refund_application_fee: "true" })
    expect(net).toBeGreaterThan(0)
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
  })

  it("holds nothing for a dispute of a Connect sale; a loss is taken from the connected account's side", async () => {
    const made = await shop(api)
    const own = await pixSale(made)
    await gatewayAccount(made, "acct_1RodaConnectDispute")
    const sale = await pixSale(made)
    const dispute = (status: string, eventType: string) =>
      stripeEvent(eventType, {
        id: `du_connect_${sale.chargeId}`,
        object: "dispute",
        amount: 10000,
        currency: "brl",
        payment_intent: sale.intent.id,
        reason: "fraudulent",
        status,
        balance_transactions: [{
          id: `txn_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
          object: "balance_transaction",
          amount: -10000,
          currency: "brl",
          fee: 1500,
          net: -11500,
          type: "adjustment"
        }]
      })
    expectOk(await postStripeEvent(api, dispute("needs_response", "charge.dispute.created")))
    expect(await balanceOf(made)).toMatchObject({ available: own.net, disputed: 0, settledByGateway: sale.net })
    expectOk(await postStripeEvent(api, dispute("lost", "charge.dispute.closed")))
    expect(await balanceOf(made)).toMatchObject({ available: own.net, disputed: 0, settledByGateway: -1500 })
    expect(await unbalancedTransactions(roda, made.community.id)).toEqual([])
  })
})
