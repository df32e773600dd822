import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../../api/rateLimitHeaders"
import { CreatedId, Ok, Page } from "../../domain/Envelope"
import { Body, Instant, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  NotFound,
  PaymentRequired,
  TooManyRequests,
  Unauthorized
} from "../../http/ApiErrors"
import { MemberScope } from "../../http/Security"
import { subscriptionStatuses } from "./Policy"

const Int = (min: number, max: number) =>
  Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
    message: () => ({ message: `must be an integer between ${min} and ${max}`, override: true })
  })

const AddOn = Schema.Struct({ id: Schema.String, productId: Schema.String, title: Schema.String, price: Schema.Number })

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

const TeamSubscription = Schema.Struct({
  ...Subscription.fields,
  member: Schema.Struct({ profileId: Schema.String, fullName: Schema.String, email: Schema.String })
})

const Billing = Schema.Struct({
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

const TierQuote = Schema.Struct({
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

const AddOnQuote = Schema.Struct({
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

const ScheduledChange = Schema.Struct({ productId: Schema.String, effectiveAt: Schema.NullOr(Schema.String) })

const Status = OneOf(...subscriptionStatuses)

export const MemberQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(Status) })
export const TeamQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(Status),
  subscriptionGroupId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid)
})
const ExportQuery = Schema.Struct({
  status: Schema.optional(Status),
  subscriptionGroupId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid)
})

const IdParam = Schema.Struct({ id: Uuid })
const TeamIdParam = Schema.Struct({ subscriptionId: Uuid })
const AddOnParam = Schema.Struct({ subscriptionId: Uuid, addOnSubscriptionId: Uuid })

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

const OWN = "The caller's own subscription (the acting profile's); another member's, or another community's, is 404."
const MOVES =
  "A move the state does not allow answers 409 with `errors[0].param = \"status\"` and the allowed moves (also in `allowedMoves` of every subscription)."
const CARD =
  "Charged to the card on file (sandbox: `tok_visa` approved, `tok_chargeDeclined` answers 402 and nothing changes but the failed billing)."
const CHARGING =
  "No network call is made inside a database transaction (this route runs outside the per-request one): the billing is marked `charging` with its attempt number and committed, the gateway is asked (idempotency key `roda-charge-{billingId}`, `-attempt-N` from the second attempt on), and its answer applied in a new transaction with the subscription locked again; the move takes effect only if the subscription still allows it: money taken for a move no longer allowed (the subscription canceled, expired or changed meanwhile) is refunded automatically, in full and once, and the answer is 409 (`param: status`), with the allowed moves, or, when the move is still allowed but the subscription changed, `A assinatura mudou enquanto a cobrança estava em andamento…`. While a billing is `charging` another charge of it answers 409 (`param: status`). A process that stops in between leaves the billing `charging`; the job `subscriptions.charge-reconcile` (10 minutes later) asks the gateway for that attempt and applies its state once (paid: the move takes effect; not received or failed: the billing `failed`). `Idempotency-Key` header (optional, per community and account): the first successful answer is stored with the key and replayed to a retry with the same key (same body) for 24 hours, after which the key may be used again (a new request, whatever its body); within them another body with the key answers 409 (`param: Idempotency-Key`); a request arriving while the first with its key is still running waits for its answer (up to 30 s, then 409 `Idempotency-Key`); a refused request (4xx, a declined card included) keeps no key. A retry never charges twice."
const TEAM_READ =
  "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const TEAM_ACT = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."

export class SubscriptionsApi extends HttpApiGroup.make("subscriptions")
  .annotateContext(OpenApi.annotations({
    title: "Subscriptions",
    description: "The caller's own subscriptions: cancel, pause, resume, change tier, add-ons, pay now."
  }))
  .add(
    HttpApiEndpoint.get("me", "/subscriptions/me")
      .addSuccess(Ok(Schema.Array(Subscription)))
      .annotate(
        OpenApi.Description,
        "The caller's subscriptions that are not over (every state but `canceled` and `incomplete_expired`), newest first, with their add-ons, scheduled change and discount."
      )
      .annotate(OpenApi.Summary, "List the caller's current subscriptions")
  )
  .add(
    HttpApiEndpoint.get("list", "/subscriptions")
      .setUrlParams(MemberQuery)
      .addSuccess(Page(Subscription))
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "The caller's subscriptions, every state, newest first (keyset: `limit`, `cursor`); `status` keeps one state. Staff see others' subscriptions through `/api/manage/subscriptions`."
      )
      .annotate(OpenApi.Summary, "List the caller's subscriptions")
  )
  .add(
    HttpApiEndpoint.get("detail", "/subscriptions/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${OWN}`)
      .annotate(OpenApi.Summary, "Get one of the caller's subscriptions")
  )
  .add(
    HttpApiEndpoint.get("billings", "/subscriptions/:id/billings")
      .setPath(IdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Billing))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        `${OWN} Its billings, newest first (keyset): the first charge, renewals (one per period, \`status\` paid, failed with \`failureReason\` and \`attempts\`, or refunded), prorations of plan changes and add-ons. A checkout's PIX or boleto paid after its subscription was canceled or paid another way does not start or extend it: it is listed with no period and refunded in full at once; it gives no access, the buyer gets a refund notice (e-mail kind \`refund\`) and neither a receipt nor the seller a sale notice.`
      )
      .annotate(OpenApi.Summary, "List a subscription's billings")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/subscriptions/:id/cancel")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} An active subscription keeps going until the end of the paid period (\`cancelAtPeriodEnd: true\`, access until then, \`reactivate\` undoes it); a past due, unpaid, paused or incomplete one ends now (\`canceled\`). E-mails the member. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Cancel a subscription")
  )
  .add(
    HttpApiEndpoint.post("pause", "/subscriptions/:id/pause")
      .setPath(IdParam)
      .setPayload(PauseBody)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} \`active -> paused\`: no charges, access removed now; the time left of the period is kept for the resume. \`resumeAt\` (optional, ISO time in the future, 400 otherwise) resumes it by itself. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Pause a subscription")
  )
  .add(
    HttpApiEndpoint.post("resume", "/subscriptions/:id/resume")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} \`paused -> active\`: a new period from now for the time that was left when paused (then renewals as usual); access back. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Resume a subscription")
  )
  .add(
    HttpApiEndpoint.post("reactivate", "/subscriptions/:id/reactivate")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} An active subscription marked to end at the period end goes on (\`cancelAtPeriodEnd\` cleared). ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Reactivate a subscription")
  )
  .add(
    HttpApiEndpoint.post("changeTierQuote", "/subscriptions/:id/change-tier/quote")
      .setPath(IdParam)
      .setPayload(ChangeTierBody)
      .addSuccess(Ok(TierQuote))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} What \`change-tier\` with the same body would do, computed by the same code; writes nothing. \`productId\`: another billing option of the subscription's plan (400 otherwise). Upgrade (more per month) defaults to \`when: now\`: on the same interval the price difference for the seconds left of the period; on another interval a new period from now at the new price less the unused part of the current one; rounded half-even once, in minor units, after the subscription's discount. A downgrade defaults to \`period_end\` (and \`when: now\` is refused, 400 param \`when\`). ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Quote a tier change")
  )
  .add(
    HttpApiEndpoint.post("changeTier", "/subscriptions/:id/change-tier")
      .setPath(IdParam)
      .setPayload(ChangeTierBody)
      .addSuccess(Ok(Schema.Struct({ scheduled: Schema.Boolean, quote: TierQuote, subscription: Subscription })))
      .addError(BadRequest)
      .addError(PaymentRequired)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} Changes the billing option. \`now\`: the quoted amount is charged at once (${CARD}) and the option changes; \`period_end\`: \`scheduledChange\` is set and applied at the period end (the renewal is charged at the new option's price as it was when scheduled, even if the option is repriced meanwhile); \`DELETE /scheduled-change\` undoes it. A change \`now\` applies only if, when the gateway answers, the subscription still stands as it was read when the charge began (its state, option, scheduled change, period and discount: compare-and-set); when the member or the team moved it meanwhile (a cancel, a downgrade scheduled, a pause, an extension, a discount), what they did stands, the amount charged is refunded in full at once, and the answer is 409 (\`param: status\`): the allowed moves when the state no longer allows a change, else \`A assinatura mudou enquanto a cobrança estava em andamento; nada foi alterado e o valor cobrado será estornado.\` (\`The subscription changed while the charge was in progress; nothing was changed and the amount charged is refunded.\`). ${MOVES} ${CHARGING}`
      )
      .annotate(OpenApi.Summary, "Change tier")
  )
  .add(
    HttpApiEndpoint.get("scheduledChange", "/subscriptions/:id/scheduled-change")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.NullOr(ScheduledChange)))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${OWN} The plan change waiting for the period end, or \`data: null\`.`)
      .annotate(OpenApi.Summary, "Get the scheduled change")
  )
  .add(
    HttpApiEndpoint.del("removeScheduledChange", "/subscriptions/:id/scheduled-change")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${OWN} Undoes the scheduled plan change (404 when there is none).`)
      .annotate(OpenApi.Summary, "Cancel the scheduled change")
  )
  .add(
    HttpApiEndpoint.post("addOnQuote", "/subscriptions/:id/add-ons/quote")
      .setPath(IdParam)
      .setPayload(AddOnBody)
      .addSuccess(Ok(AddOnQuote))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} What adding the add-on would charge now, computed by the same code as \`add-ons\`; writes nothing. \`productId\`: an add-on of the plan (400 otherwise; 409 when the subscription already has it). The add-on's monthly price times the months of the period, for the seconds left of the period, after the discount, rounded half-even once. From the next renewal it is billed with the plan. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Quote an add-on")
  )
  .add(
    HttpApiEndpoint.post("addOn", "/subscriptions/:id/add-ons")
      .setPath(IdParam)
      .setPayload(AddOnBody)
      .addSuccess(Ok(Schema.Struct({ quote: AddOnQuote, subscription: Subscription })))
      .addError(BadRequest)
      .addError(PaymentRequired)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${OWN} Adds the add-on to the running plan: the quoted amount is charged now (${CARD}); access to the add-on until the period end, then renewed with the plan. ${MOVES} ${CHARGING}`
      )
      .annotate(OpenApi.Summary, "Add an add-on")
  )
  .add(
    HttpApiEndpoint.post("payNow", "/subscriptions/:id/pay-now")
      .setPath(IdParam)
      .setPayload(PayNowBody)
      .addSuccess(Ok(Schema.Struct({ billing: Billing, subscription: Subscription })))
      .addError(BadRequest)
      .addError(PaymentRequired)
      .addError(NotFound)
      .addError(Conflict)
      .addError(Gone)
      .annotate(
        OpenApi.Description,
        `${OWN} Pays the open charge now by card (\`paymentMethod: CREDIT_CARD\` and \`cardToken\`; PIX and boleto are refused, 400 param \`paymentMethod\`); the card becomes the card on file. \`past_due -> active\` (the period being renewed), \`unpaid -> active\` and a manual subscription's \`incomplete -> active\` (a new period from the payment). Declined: 402, the subscription stays as it was. \`token\`: the secret of an e-mailed payment link (single use: 400 when unknown, 410 when used or expired). ${MOVES} ${CHARGING}`
      )
      .annotate(OpenApi.Summary, "Pay an overdue subscription now")
  )
  .middleware(MemberScope)
  .addError(Unauthorized)
  .addError(Forbidden)
  .prefix("/api")
{}

export class ManageSubscriptionsApi extends HttpApiGroup.make("manageSubscriptions")
  .annotateContext(OpenApi.annotations({
    title: "Subscriptions (team)",
    description: "The community's subscriptions, managed by owners and admins (finance reads)."
  }))
  .add(
    HttpApiEndpoint.get("list", "/manage/subscriptions")
      .setUrlParams(TeamQuery)
      .addSuccess(Page(TeamSubscription))
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        `${TEAM_READ} Every subscription of the community, newest first (keyset: \`limit\`, \`cursor\`), with the member's name and e-mail; filters \`status\`, \`subscriptionGroupId\` (the plan), \`profileId\`.`
      )
      .annotate(OpenApi.Summary, "List the community's subscriptions")
  )
  .add(
    HttpApiEndpoint.post("create", "/manage/subscriptions")
      .setPayload(ManualBody)
      .addSuccess(Ok(CreatedId), { status: 201 })
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} A manual subscription of a member (\`profileId\`, 400 when not a profile of the community) to a plan's billing option (\`productId\`, 400 \`Product not found\` otherwise). \`kind: courtesy\`: active from \`startsAt\` (default now) until \`periodEnd\` (required, in the future) without a charge, then it ends by itself. \`kind: charge\`: \`incomplete\` until the member pays; at \`startsAt\` (default now) the member is e-mailed a payment link, and paying (\`pay-now\`) starts the first period.`
      )
      .annotate(OpenApi.Summary, "Create a manual subscription")
  )
  .add(
    HttpApiEndpoint.get("exportCsv", "/manage/subscriptions/export.csv")
      .setUrlParams(ExportQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        `${TEAM_READ} The subscriptions as CSV (RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled; a text cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading \`'\` so spreadsheets do not run it as a formula), a header line first, streamed page by page; the same filters as the list.`
      )
      .annotate(OpenApi.Summary, "Export subscriptions as CSV")
  )
  .add(
    HttpApiEndpoint.get("detail", "/manage/subscriptions/:subscriptionId")
      .setPath(TeamIdParam)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${TEAM_READ} One subscription of the community (another community's: 404).`)
      .annotate(OpenApi.Summary, "Get a subscription (team)")
  )
  .add(
    HttpApiEndpoint.get("billings", "/manage/subscriptions/:subscriptionId/billings")
      .setPath(TeamIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Billing))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${TEAM_READ} A subscription's billings, newest first (keyset).`)
      .annotate(OpenApi.Summary, "List a subscription's billings (team)")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/manage/subscriptions/:subscriptionId/cancel")
      .setPath(TeamIdParam)
      .setPayload(TeamCancelBody)
      .addSuccess(Ok(Schema.Struct({ refunded: Schema.Number, subscription: TeamSubscription })))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} \`when: period_end\`: an active subscription is marked to end (as the member's cancel). \`when: now\`: any open subscription ends now (\`canceled\`, access ends), with \`refund\` \`none\` (default), \`prorated\` (the unused seconds of the last paid period, rounded half-even once) or \`full\` (that period's whole amount), given back through the gateway and debited from the ledger (pending first, then available); \`refund\` with \`period_end\` is 400. \`refunded\` is the amount given back. With a refund no network call is made inside a database transaction (the route runs outside the per-request one): the refund is written \`pending\` (row locked, move checked) and committed, the gateway is asked (idempotency key \`roda-refund-{refundId}\`), and in a new transaction the refund is posted and the subscription ends together; a refund the gateway refuses answers 400 and the subscription stays as it was. A process that stops in between is finished by the job \`subscriptions.refund\` (10 minutes later), once. \`Idempotency-Key\` as for \`pay-now\` (stored answer replayed for 24 hours, 409 for another body meanwhile). ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Cancel a subscription (team)")
  )
  .add(
    HttpApiEndpoint.post("reactivate", "/manage/subscriptions/:subscriptionId/reactivate")
      .setPath(TeamIdParam)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Description, `${TEAM_ACT} A subscription marked to end at the period end goes on. ${MOVES}`)
      .annotate(OpenApi.Summary, "Reactivate a subscription (team)")
  )
  .add(
    HttpApiEndpoint.put("setDiscount", "/manage/subscriptions/:subscriptionId/discount")
      .setPath(TeamIdParam)
      .setPayload(DiscountBody)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} \`percent\` (1..100) off the future charges (renewals, prorations, add-ons), for \`months\` renewals (1..120) or, without it, for good. Replaces a discount set before. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Set a subscription discount")
  )
  .add(
    HttpApiEndpoint.del("removeDiscount", "/manage/subscriptions/:subscriptionId/discount")
      .setPath(TeamIdParam)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Description, `${TEAM_ACT} Removes the discount (404 when there is none).`)
      .annotate(OpenApi.Summary, "Remove a subscription discount")
  )
  .add(
    HttpApiEndpoint.post("addOn", "/manage/subscriptions/:subscriptionId/add-ons")
      .setPath(TeamIdParam)
      .setPayload(AddOnBody)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} Adds an add-on of the plan without charging now (free until the period end, billed with the renewals); the add-on's id is in \`addOns[].id\`. 400 when not an add-on of the plan, 409 when already there. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Add an add-on (team)")
  )
  .add(
    HttpApiEndpoint.del("removeAddOn", "/manage/subscriptions/:subscriptionId/add-ons/:addOnSubscriptionId")
      .setPath(AddOnParam)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} Removes an add-on (\`addOns[].id\`): its access ends now and it is no longer billed. 404 when the subscription has no such add-on.`
      )
      .annotate(OpenApi.Summary, "Remove an add-on (team)")
  )
  .add(
    HttpApiEndpoint.post("extend", "/manage/subscriptions/:subscriptionId/extend")
      .setPath(TeamIdParam)
      .setPayload(ExtendBody)
      .addSuccess(Ok(TeamSubscription))
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} Moves the period end \`days\` (1..366) later without a charge; access and the next renewal follow. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Extend a subscription period")
  )
  .add(
    HttpApiEndpoint.post("paymentLink", "/manage/subscriptions/:subscriptionId/payment-link")
      .setPath(TeamIdParam)
      .addSuccess(Ok(Schema.Struct({ url: Schema.String, expiresAt: Schema.String })))
      .annotate(RateLimitPolicy, "paymentLink")
      .addError(TooManyRequests)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} E-mails the member a link (\`data.url\`) to pay the open charge or register a card: single use, valid 7 days; the page it opens calls \`pay-now\` with its \`token\`. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Send a payment link")
  )
  .middleware(MemberScope)
  .addError(Unauthorized)
  .addError(Forbidden)
  .prefix("/api")
{}
