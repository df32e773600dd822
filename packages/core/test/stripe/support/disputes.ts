import { randomUUID } from "node:crypto"
import { stripeEvent } from "./fakeStripe"

/** Stripe's dispute fee in these tests (R$ 15,00), as a dispute's withdrawal balance transaction carries it. */
export const DISPUTE_FEE = 1500

const balanceTransaction = (amount: number, fee: number) => ({
  id: `txn_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
  object: "balance_transaction",
  amount,
  currency: "brl",
  fee,
  fee_details: fee === 0 ? [] : [{ amount: fee, currency: "brl", description: "Dispute fee", type: "stripe_fee" }],
  net: amount - fee,
  reporting_category: amount < 0 ? "dispute" : "dispute_reversal",
  type: "adjustment"
})

/**
 * A `charge.dispute.*` event as Stripe sends it for `intent`'s charge: `created` (`needs_response`,
 * the withdrawal with its fee), `closed` as `won` (the reinstatement gives the fee back) or `lost`
 * (the withdrawal only). `created`: the event's time in seconds (the server's clock, when tests move it).
 */
export const disputeEvent = (
  intent: Record<string, any>,
  disputeId: string,
  step: "created" | "won" | "lost",
  amount = 10000,
  created = Math.floor(Date.now() / 1000)
) => {
  const withdrawal = balanceTransaction(-amount, DISPUTE_FEE)
  return stripeEvent(step === "created" ? "charge.dispute.created" : "charge.dispute.closed", {
    id: disputeId,
    object: "dispute",
    amount,
    balance_transactions: step === "won" ? [withdrawal, balanceTransaction(amount, -DISPUTE_FEE)] : [withdrawal],
    charge: intent.latest_charge,
    created,
    currency: "brl",
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: intent.id,
    reason: "fraudulent",
    status: step === "created" ? "needs_response" : step
  })
}

export const newDisputeId = () => `du_${randomUUID().replace(/-/g, "").slice(0, 24)}`
