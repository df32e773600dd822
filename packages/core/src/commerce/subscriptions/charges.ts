import { Effect, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import type { ChargeRequest } from "../../platform/PaymentGateway"
import { billingMove, type Phase } from "./Policy"
import type { BillingRow } from "./Repo"

/** Job kind: a billing left `charging` (the process stopped while the gateway was asked) is asked of the gateway. */
export const CHARGE_RECONCILE_JOB = "subscriptions.charge-reconcile"
/** Job kind: a refund of a billing asked of the gateway (run at once, and again after a crash). */
export const REFUND_JOB = "subscriptions.refund"

/**
 * How long after an attempt is marked `charging` its reconciliation runs: well past the longest
 * gateway call (the Stripe SDK gives up after 80 s), so a request still waiting is never overtaken.
 */
export const CHARGE_RECONCILE_AFTER_MS = 10 * 60 * 1000

/** What a charge is for: what its answer does to the subscription (applied with the row locked). */
export const Purpose = Schema.Union(
  Schema.TaggedStruct("renewal", {}),
  Schema.TaggedStruct("retry", { retry: Schema.Number }),
  Schema.TaggedStruct("pay_now", {}),
  /**
   * `standing`: where the subscription stood when the change was decided (`Policy.standingOf`).
   * `price`: the option's price the change was quoted and charged at, what the subscription renews
   * at (absent from charges queued before it was carried: the catalogue's price when applied).
   */
  Schema.TaggedStruct("change_tier", {
    productId: Schema.String,
    standing: Schema.optional(Schema.String),
    price: Schema.optional(Schema.Number)
  }),
  /** `price`: the add-on's monthly price quoted and charged (absent from older charges, as above). */
  Schema.TaggedStruct("add_on", { productId: Schema.String, price: Schema.optional(Schema.Number) })
)
export type Purpose = typeof Purpose.Type

/** One attempt at charging a billing: the reconciliation job's payload, and what the answer is applied with. */
export const Attempt = Schema.Struct({
  communityId: CommunityId,
  subscriptionId: Schema.String,
  billingId: Schema.String,
  attempt: Schema.Number,
  cardToken: Schema.NullOr(Schema.String),
  description: Schema.String,
  purpose: Purpose
})
export type Attempt = typeof Attempt.Type

export type ChargeResult =
  /**
   * `givenBack`: the money was taken for a move the subscription no longer allowed, and is given
   * back (a refund job, at once); the phase the subscription was in then.
   */
  | { readonly _tag: "Paid"; readonly billing: BillingRow; readonly givenBack?: Phase }
  | { readonly _tag: "Declined"; readonly reason: string }
  | { readonly _tag: "InvalidCard" }
  /** Another attempt at this billing is at the gateway now. */
  | { readonly _tag: "InFlight" }

/** Phase a's result: the answer is known already (nothing to ask), or the gateway must be asked. */
export type Begun =
  | { readonly _tag: "Done"; readonly result: ChargeResult }
  | { readonly _tag: "Charging"; readonly attempt: Attempt; readonly request: ChargeRequest }

export const resultOf = (billing: BillingRow): ChargeResult =>
  billing.status === "paid" || billing.status === "refunded"
    ? { _tag: "Paid", billing }
    : billing.status === "charging"
    ? { _tag: "InFlight" }
    : billing.failureReason === "invalid_card"
    ? { _tag: "InvalidCard" }
    : { _tag: "Declined", reason: billing.failureReason ?? "declined" }

/** Moves a billing by the table; a move the table lacks is a bug (callers check the state first). */
export const moveBilling = (billing: BillingRow, move: Parameters<typeof billingMove>[1]) => {
  const to = billingMove(billing.status, move)
  return to === undefined
    ? Effect.dieMessage(`subscription billing ${billing.id}: ${move} from ${billing.status}`)
    : Effect.succeed(to)
}
