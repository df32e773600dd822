import { Schema } from "effect"
import { Body, Instant, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { subscriptionStatuses } from "./Policy"

/** The schemas and descriptions both subscription groups share (`Api.ts`, `ManageSubscriptionsApi.ts`). */
export const Int = (min: number, max: number) =>
  Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
    message: () => ({ message: `must be an integer between ${min} and ${max}`, override: true })
  })

export const AddOn = Schema.Struct({
  id: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  price: Schema.Number
})

export const Subscription = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  profileId: Schema.String,
  productId: Schema.String,
  productTitle: Schema.String,
  subscriptionGroupId: Schema.String,
  kind: Schema.String,
  billingInterval: Schema.NullOr(Schema.String),
  price: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  hasCard: Schema.Boolean,
  currentPeriodStart: Schema.NullOr(Schema.String),
  currentPeriodEnd: Schema.NullOr(Schema.String),
  cancelAtPeriodEnd: Schema.Boolean,
  pausedUntil: Schema.NullOr(Schema.String),
  scheduledChange: Schema.NullOr(
    Schema.Struct({ productId: Schema.String, effectiveAt: Schema.NullOr(Schema.String) })
  ),
  discountPercent: Schema.NullOr(Schema.Number),
  discountMonthsLeft: Schema.NullOr(Schema.Number),
  addOns: Schema.Array(AddOn),
  canceledAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  allowedMoves: Schema.Array(Schema.String)
})

export const TeamSubscription = Schema.Struct({
  ...Subscription.fields,
  member: Schema.Struct({ profileId: Schema.String, fullName: Schema.String, email: Schema.String })
})

export const Billing = Schema.Struct({
  id: Schema.String,
  reason: Schema.String,
  status: Schema.String,
  periodStart: Schema.NullOr(Schema.String),
  periodEnd: Schema.NullOr(Schema.String),
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  currency: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  attempts: Schema.Number,
  failureReason: Schema.NullOr(Schema.String),
  refundedAmount: Schema.Number,
  paidAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

export const TierQuote = Schema.Struct({
  subscriptionId: Schema.String,
  productId: Schema.String,
  direction: Schema.String,
  when: Schema.String,
  effectiveAt: Schema.String,
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  currency: Schema.String,
  remainingSeconds: Schema.Number,
  periodStart: Schema.String,
  periodEnd: Schema.String
})

export const AddOnQuote = Schema.Struct({
  subscriptionId: Schema.String,
  productId: Schema.String,
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  currency: Schema.String,
  remainingSeconds: Schema.Number,
  periodEnd: Schema.String,
  monthlyPrice: Schema.Number
})

export const ScheduledChange = Schema.Struct({ productId: Schema.String, effectiveAt: Schema.NullOr(Schema.String) })

export const Status = OneOf(...subscriptionStatuses)

export const MemberQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(Status) })
export const TeamQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(Status),
  subscriptionGroupId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid)
})
export const ExportQuery = Schema.Struct({
  status: Schema.optional(Status),
  subscriptionGroupId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid)
})

export const IdParam = Schema.Struct({ id: Uuid })
export const TeamIdParam = Schema.Struct({ subscriptionId: Uuid })
export const AddOnParam = Schema.Struct({ subscriptionId: Uuid, addOnSubscriptionId: Uuid })

export const ChangeTierBody = Body({ productId: Uuid, when: Schema.optional(OneOf("now", "period_end")) })
export const AddOnBody = Body({ productId: Uuid })
export const PauseBody = Body({ resumeAt: Schema.optional(Instant) })
export const PayNowBody = Body({
  paymentMethod: PaymentMethod,
  cardToken: Schema.optional(Name(200)),
  token: Schema.optional(Name(200))
})
export const ManualBody = Body({
  profileId: Uuid,
  productId: Uuid,
  kind: OneOf("courtesy", "charge"),
  startsAt: Schema.optional(Instant),
  periodEnd: Schema.optional(Instant)
})
export const TeamCancelBody = Body({
  when: OneOf("now", "period_end"),
  refund: Schema.optional(OneOf("none", "prorated", "full"))
})
export const DiscountBody = Body({ percent: Int(1, 100), months: Schema.optional(Int(1, 120)) })
export const ExtendBody = Body({ days: Int(1, 366) })

export const OWN =
  "The caller's own subscription (the acting profile's); another member's, or another community's, is 404."
export const MOVES =
  "A move the state does not allow answers 409 with `errors[0].param = \"status\"` and the allowed moves (also in `allowedMoves` of every subscription)."
export const CARD =
  "Charged to the card on file (sandbox: `tok_visa` approved, `tok_chargeDeclined` answers 402 and nothing changes but the failed billing)."
export const CHARGING =
  "No network call is made inside a database transaction (this route runs outside the per-request one): the billing is marked `charging` with its attempt number and committed, the gateway is asked (idempotency key `roda-charge-{billingId}`, `-attempt-N` from the second attempt on), and its answer applied in a new transaction with the subscription locked again; the move takes effect only if the subscription still allows it: money taken for a move no longer allowed (the subscription canceled, expired or changed meanwhile) is refunded automatically, in full and once, and the answer is 409 (`param: status`), with the allowed moves, or, when the move is still allowed but the subscription changed, `A assinatura mudou enquanto a cobrança estava em andamento…`. While a billing is `charging` another charge of it answers 409 (`param: status`). A process that stops in between leaves the billing `charging`; the job `subscriptions.charge-reconcile` (10 minutes later) asks the gateway for that attempt and applies its state once (paid: the move takes effect; not received or failed: the billing `failed`). `Idempotency-Key` header (optional, per community and account): the first successful answer is stored with the key and replayed to a retry with the same key (same body) for 24 hours, after which the key may be used again (a new request, whatever its body); within them another body with the key answers 409 (`param: Idempotency-Key`); a request arriving while the first with its key is still running waits for its answer (up to 30 s, then 409 `Idempotency-Key`); a refused request (4xx, a declined card included) keeps no key. A retry never charges twice."
export const TEAM_READ =
  "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
export const TEAM_ACT = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
