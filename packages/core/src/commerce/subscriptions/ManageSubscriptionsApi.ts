import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../../api/rateLimitHeaders"
import { Conflict, Forbidden, InvalidInput, NotFound, RateLimited } from "../../domain/AppError"
import { CreatedId, Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import {
  AddOnBody,
  AddOnParam,
  Billing,
  DiscountBody,
  ExportQuery,
  ExtendBody,
  ManualBody,
  MOVES,
  TEAM_ACT,
  TEAM_READ,
  TeamCancelBody,
  TeamIdParam,
  TeamQuery,
  TeamSubscription
} from "./apiSchemas"

/** A subscription as the team's detail route answers it, for the payloads of its webhooks. */
export { TeamSubscription }

export class ManageSubscriptionsApi extends HttpApiGroup.make("manageSubscriptions")
  .annotateContext(OpenApi.annotations({
    title: "Subscriptions (team)",
    description: "The community's subscriptions, managed by owners and admins (finance reads)."
  }))
  .add(
    HttpApiEndpoint.get("list", "/manage/subscriptions")
      .setUrlParams(TeamQuery)
      .addSuccess(Page(TeamSubscription))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
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
      .addError(
        declared(
          InvalidInput,
          "future_required",
          "period_end_after_start",
          "period_end_required",
          "product_not_found",
          "profile_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Description, `${TEAM_READ} One subscription of the community (another community's: 404).`)
      .annotate(OpenApi.Summary, "Get a subscription (team)")
  )
  .add(
    HttpApiEndpoint.get("billings", "/manage/subscriptions/:subscriptionId/billings")
      .setPath(TeamIdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Billing))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Description, `${TEAM_READ} A subscription's billings, newest first (keyset).`)
      .annotate(OpenApi.Summary, "List a subscription's billings (team)")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/manage/subscriptions/:subscriptionId/cancel")
      .setPath(TeamIdParam)
      .setPayload(TeamCancelBody)
      .addSuccess(Ok(Schema.Struct({ refunded: Schema.Number, subscription: TeamSubscription })))
      .addError(declared(InvalidInput, "declined", "idempotency_key_invalid", "refund_only_now"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(
        declared(Conflict, "changed_meanwhile", "idempotency_in_flight", "idempotency_key_reused", "move_refused")
      )
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${TEAM_ACT} A subscription marked to end at the period end goes on. ${MOVES}`)
      .annotate(OpenApi.Summary, "Reactivate a subscription (team)")
  )
  .add(
    HttpApiEndpoint.put("setDiscount", "/manage/subscriptions/:subscriptionId/discount")
      .setPath(TeamIdParam)
      .setPayload(DiscountBody)
      .addSuccess(Ok(TeamSubscription))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "no_discount", "not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${TEAM_ACT} Removes the discount (404 when there is none).`)
      .annotate(OpenApi.Summary, "Remove a subscription discount")
  )
  .add(
    HttpApiEndpoint.post("addOn", "/manage/subscriptions/:subscriptionId/add-ons")
      .setPath(TeamIdParam)
      .setPayload(AddOnBody)
      .addSuccess(Ok(TeamSubscription))
      .addError(declared(InvalidInput, "not_an_add_on"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "add_on_taken", "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "add_on_not_found", "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(BodyRefused)
      .addError(WriteRefused)
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
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "changed_meanwhile", "move_refused"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "paymentLink")
      .annotate(
        OpenApi.Description,
        `${TEAM_ACT} E-mails the member a link (\`data.url\`) to pay the open charge or register a card: single use, valid 7 days; the page it opens calls \`pay-now\` with its \`token\`. ${MOVES}`
      )
      .annotate(OpenApi.Summary, "Send a payment link")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
