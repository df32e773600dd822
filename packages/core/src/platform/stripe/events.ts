import type Stripe from "stripe"
import type { GatewayEvent } from "../PaymentGateway"

/** The metadata key every PaymentIntent Roda creates carries: our charge id. */
export const CHARGE_METADATA = "roda_charge_id"
export const COMMUNITY_METADATA = "roda_community_id"
/** Which attempt at our charge a PaymentIntent is (subscription billings are charged again on retries). */
export const ATTEMPT_METADATA = "roda_attempt"

const idOf = (value: string | { readonly id: string } | null | undefined) =>
  value === null || value === undefined ? undefined : typeof value === "string" ? value : value.id

/** How a closed dispute ended for the seller: an inquiry closed or a dispute prevented gives the money back. */
const closedAs: Partial<Record<string, "won" | "lost">> = {
  won: "won",
  warning_closed: "won",
  prevented: "won",
  lost: "lost"
}

/**
 * What Stripe charged for a dispute so far: the fees of its balance transactions (the withdrawal
 * carries the dispute fee; a reinstatement that gives it back carries it negative), in their currency.
 */
const feeOf = (dispute: Extract<Stripe.Event, { type: "charge.dispute.closed" }>["data"]["object"]) => {
  const transactions: ReadonlyArray<{ readonly fee?: number; readonly currency?: string }> =
    dispute.balance_transactions ?? []
  const currency = dispute.currency?.toUpperCase() ?? null
  return {
    currency,
    fee: transactions.reduce((sum, transaction) => sum + (transaction.fee ?? 0), 0),
    feeCurrency: transactions[0]?.currency?.toUpperCase() ?? currency
  }
}

/**
 * A verified Stripe event as Roda reads it. PaymentIntents without our metadata are another
 * system's (the account may sell elsewhere too) and are acknowledged as `other`; a refunded charge
 * and a lost dispute name the PaymentIntent, which Roda stored as the gateway charge id.
 */
export const toGatewayEvent = (event: Stripe.Event): GatewayEvent => {
  const other = { eventId: event.id, type: "other", gatewayChargeId: "" } as const
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.canceled": {
      const intent = event.data.object
      const chargeId = intent.metadata?.[CHARGE_METADATA]
      if (chargeId === undefined) return other
      // A failed attempt of a card still waiting for 3-D Secure or a new card is final for Roda:
      // the buyer checks out again (a new charge), the reservation is given back.
      const type = event.type === "payment_intent.succeeded" ? "charge.paid" : "charge.expired"
      const settledTo = idOf(intent.transfer_data?.destination)
      return { eventId: event.id, type, gatewayChargeId: intent.id, chargeId, ...(settledTo ? { settledTo } : {}) }
    }
    case "charge.refunded": {
      const charge = event.data.object
      const intent = idOf(charge.payment_intent)
      if (intent === undefined) return other
      return {
        eventId: event.id,
        type: "charge.refunded",
        gatewayChargeId: intent,
        chargeId: charge.metadata?.[CHARGE_METADATA],
        amount: charge.amount_refunded
      }
    }
    case "charge.dispute.created":
    case "charge.dispute.closed": {
      const dispute = event.data.object
      const intent = idOf(dispute.payment_intent)
      const step = event.type === "charge.dispute.created" ? "opened" : closedAs[dispute.status]
      if (step === undefined || intent === undefined || !Number.isSafeInteger(dispute.amount) || dispute.amount < 0) {
        return other
      }
      return {
        eventId: event.id,
        type: "charge.dispute",
        gatewayChargeId: intent,
        amount: dispute.amount,
        dispute: { id: dispute.id, step, amount: dispute.amount, reason: dispute.reason ?? null, ...feeOf(dispute) }
      }
    }
    default:
      return other
  }
}
