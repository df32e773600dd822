import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Gone, InvalidInput, NotFound, PaymentRequired } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import {
  AddOnBody,
  AddOnQuote,
  Billing,
  CARD,
  ChangeTierBody,
  CHARGING,
  IdParam,
  MemberQuery,
  MOVES,
  OWN,
  PauseBody,
  PayNowBody,
  ScheduledChange,
  Subscription,
  TierQuote
} from "./apiSchemas"

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
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Description, `${OWN}`)
      .annotate(OpenApi.Summary, "Get one of the caller's subscriptions")
  )
  .add(
    HttpApiEndpoint.get("billings", "/subscriptions/:id/billings")
      .setPath(IdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Billing))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
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
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(InvalidInput, "future_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(InvalidInput, "downgrade_now", "not_a_plan_option", "same_plan_option"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(
        declared(
          InvalidInput,
          "card_token_invalid",
          "downgrade_now",
          "idempotency_key_invalid",
          "not_a_plan_option",
          "same_plan_option"
        )
      )
      .addError(declared(PaymentRequired, "declined"))
      .addError(declared(NotFound, "not_found"))
      .addError(
        declared(
          Conflict,
          "changed_meanwhile",
          "charge_in_flight",
          "idempotency_in_flight",
          "idempotency_key_reused",
          "move_refused"
        )
      )
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Description, `${OWN} The plan change waiting for the period end, or \`data: null\`.`)
      .annotate(OpenApi.Summary, "Get the scheduled change")
  )
  .add(
    HttpApiEndpoint.del("removeScheduledChange", "/subscriptions/:id/scheduled-change")
      .setPath(IdParam)
      .addSuccess(Ok(Subscription))
      .addError(declared(NotFound, "no_scheduled_change", "not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${OWN} Undoes the scheduled plan change (404 when there is none).`)
      .annotate(OpenApi.Summary, "Cancel the scheduled change")
  )
  .add(
    HttpApiEndpoint.post("addOnQuote", "/subscriptions/:id/add-ons/quote")
      .setPath(IdParam)
      .setPayload(AddOnBody)
      .addSuccess(Ok(AddOnQuote))
      .addError(declared(InvalidInput, "not_an_add_on"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "add_on_taken", "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(InvalidInput, "card_token_invalid", "idempotency_key_invalid", "not_an_add_on"))
      .addError(declared(PaymentRequired, "declined"))
      .addError(declared(NotFound, "not_found"))
      .addError(
        declared(
          Conflict,
          "add_on_taken",
          "changed_meanwhile",
          "charge_in_flight",
          "idempotency_in_flight",
          "idempotency_key_reused",
          "move_refused"
        )
      )
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(
        declared(
          InvalidInput,
          "card_only",
          "card_token_invalid",
          "card_token_required",
          "idempotency_key_invalid",
          "payment_link_invalid"
        )
      )
      .addError(declared(PaymentRequired, "declined"))
      .addError(declared(NotFound, "not_found"))
      .addError(
        declared(
          Conflict,
          "changed_meanwhile",
          "charge_in_flight",
          "idempotency_in_flight",
          "idempotency_key_reused",
          "move_refused"
        )
      )
      .addError(declared(Gone, "payment_link_gone"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${OWN} Pays the open charge now by card (\`paymentMethod: CREDIT_CARD\` and \`cardToken\`; PIX and boleto are refused, 400 param \`paymentMethod\`); the card becomes the card on file. \`past_due -> active\` (the period being renewed), \`unpaid -> active\` and a manual subscription's \`incomplete -> active\` (a new period from the payment). Declined: 402, the subscription stays as it was. \`token\`: the secret of an e-mailed payment link (single use: 400 when unknown, 410 when used or expired). ${MOVES} ${CHARGING}`
      )
      .annotate(OpenApi.Summary, "Pay an overdue subscription now")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}

export {
  AddOnBody,
  ChangeTierBody,
  DiscountBody,
  ExtendBody,
  ManualBody,
  MemberQuery,
  PauseBody,
  PayNowBody,
  Subscription,
  TeamCancelBody,
  TeamQuery
} from "./apiSchemas"
export { ManageSubscriptionsApi } from "./ManageSubscriptionsApi"
