import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { Currency } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { Authenticated, MemberScope } from "../../http/Security"
import { MAX_PAYOUT, payoutStatuses } from "./Policy"

const Amount = Schema.Number.pipe(Schema.int(), Schema.between(1, MAX_PAYOUT)).annotations({
  message: () => ({ message: `must be an integer number of minor units between 1 and ${MAX_PAYOUT}`, override: true })
})

export const PayoutBody = Body({ amount: Amount, currency: Schema.optional(Currency) })
export const FailBody = Body({ reason: Name(500) })

/** A payout as its routes answer it (and the payload of its webhooks). */
export const Payout = Schema.Struct({
  id: Schema.String,
  status: OneOf(...payoutStatuses),
  amount: Schema.Number,
  fee: Schema.Number,
  total: Schema.Number,
  currency: Schema.String,
  method: Schema.NullOr(Schema.String),
  destination: Schema.NullOr(Schema.String).annotations({
    description:
      "Where the money went: the approved payout settings' Pix key (with its type) or bank account (bank, branch, account, type, holder's name), recorded when the payout goes in transit; null before that. Later changes to the settings do not change it."
  }),
  requestedBy: Schema.String,
  failureReason: Schema.NullOr(Schema.String),
  allowedMoves: Schema.Array(Schema.String),
  createdAt: Schema.String,
  inTransitAt: Schema.NullOr(Schema.String),
  paidAt: Schema.NullOr(Schema.String),
  failedAt: Schema.NullOr(Schema.String),
  canceledAt: Schema.NullOr(Schema.String)
})

const Balance = Schema.Struct({
  currency: Schema.String,
  pending: Schema.Number,
  available: Schema.Number,
  inTransit: Schema.Number,
  disputed: Schema.Number.annotations({
    description:
      "Held by open gateway disputes: taken from `available` when a dispute opens (a payout cannot take it), given back when it is won, taken back as a chargeback when it is lost."
  }),
  total: Schema.Number.annotations({
    description: "What Roda holds for the community: `pending + available + inTransit + disputed`."
  }),
  settledByGateway: Schema.Number.annotations({
    description:
      "The net of sales the gateway settled straight into the community's own account (Stripe Connect destination charges), less their refunds, chargebacks and dispute fees: never part of `available` or `total`, never paid out by Roda."
  })
})

export const PayoutListQuery = Schema.Struct({
  ...PageQuery.fields,
  status: Schema.optional(OneOf(...payoutStatuses))
})

const ID = Schema.Struct({ id: Uuid })
const ADMIN_PATH = Schema.Struct({ communityId: Uuid, id: Uuid })

const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const MACHINE =
  "States: `pending -> in_transit -> paid`, `pending -> canceled` (the community), `pending | in_transit -> failed` (amount and fee back to available), `paid -> failed` (a bank return, the same). A move not allowed answers 409 with `errors[0].param = \"status\"` and the allowed moves; each payout shows its `allowedMoves`."
const DISPUTES =
  "Disputes (Stripe `charge.dispute.created` / `charge.dispute.closed`): when one opens, the disputed amount (at most what is left unrefunded of the sale) moves from `available` to `disputed` at once, even when that takes `available` below zero; `won` (or an inquiry closed, or a dispute prevented) moves it back; `lost` moves it back and takes the disputed amount as a chargeback (pending first, then available; the platform gives back its part of the fee and interest as for refunds) and debits the dispute fee Stripe charged (the fees of the dispute's balance transactions, net of any given back, in their currency; debited on any close). A close seen before its opening books the outcome without a hold; a late or repeated event changes nothing (`open -> won | lost`, final). Each step is a balanced ledger transaction (`dispute_hold`, `dispute_release`, `refund`, `dispute_fee`) posted once per dispute, and the community's owners get a `dispute.opened` / `dispute.closed` e-mail. A sale settled to the community's Connect account holds nothing here: Stripe reverses it from the connected account, so its refunds, chargebacks and dispute fee are taken from `settledByGateway`."
const OPERATOR =
  "Platform operators (SuperAdmin) only (403 otherwise); no X-CommunityId: the path names the community (404 for an unknown community or a payout of another community)."

export class PayoutsApi extends HttpApiGroup.make("payouts")
  .annotateContext(OpenApi.annotations({
    title: "Payouts",
    description: "Balances and payout requests of the community."
  }))
  .add(
    HttpApiEndpoint.get("balance", "/payouts/balance")
      .addSuccess(Ok(Schema.Array(Balance)))
      .addError(declared(Forbidden, "role_required"))
      .annotate(
        OpenApi.Description,
        `${READERS} The community's balance per currency, in minor units, in two parts that never mix. Held by Roda (paid out by payout requests): \`pending\` (sales not yet released), \`available\` (may be paid out), \`inTransit\` (open payouts: pending or in transit), \`disputed\` (held by open disputes) and their \`total\`. Settled by the gateway: \`settledByGateway\`, the net of sales made through the community's Stripe Connect account (destination charges), which Stripe pays into that account; they never enter \`pending\` or \`available\`, so one sale has exactly one payout path. A community that never sold gets its currency with zeros. Releases that fell due are posted first. ${DISPUTES}`
      )
      .annotate(OpenApi.Summary, "Get the payout balance")
  )
  .add(
    HttpApiEndpoint.get("list", "/payouts")
      .setUrlParams(PayoutListQuery)
      .addSuccess(Page(Payout))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's payouts, newest first (keyset: \`limit\`, \`cursor\`); \`status\` filters. ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "List payouts")
  )
  .add(
    HttpApiEndpoint.post("request", "/payouts")
      .setPayload(PayoutBody)
      .addSuccess(Ok(Payout), { status: 201 })
      .addError(declared(InvalidInput, "insufficient", "payment_not_configured"))
      .addError(declared(Forbidden, "email_not_verified", "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "open_payout"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Requests a payout of \`amount\` (minor units) in \`currency\` (default: the community's currency). Needs approved payout settings (400 \`Payment configuration has not been set up for this community\`). A fee of 200 minor units (R$ 2,00) is taken from the available balance on top of the amount: \`amount + fee\` must not exceed \`available\` (400 \`Insufficient balance. Available: 12.34 BRL\`, param \`amount\`): money held by open disputes and money settled by Stripe to the community's Connect account are not in \`available\`, so a payout never takes them. One open payout (pending or in transit) at a time (409). The checks run under the lock of the community's available balance, so concurrent requests never overdraw it; the ledger moves \`amount\` to in transit and the fee to the platform in the same transaction. Answers 201 with the payout (\`status: pending\`). The caller's e-mail must be confirmed (403 \`Confirme seu e-mail antes…\` otherwise; issue 52). ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "Request a payout")
  )
  .add(
    HttpApiEndpoint.get("detail", "/payouts/:id")
      .setPath(ID)
      .addSuccess(Ok(Payout))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Description, `${READERS} One payout (404 for another community's).`)
      .annotate(OpenApi.Summary, "Get a payout")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/payouts/:id/cancel")
      .setPath(ID)
      .addSuccess(Ok(Payout))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "not_found"))
      .addError(declared(Conflict, "move", "settings_changed"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Cancels a pending payout: amount and fee go back to available. ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "Cancel a payout")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}

export class PayoutOperationsApi extends HttpApiGroup.make("payoutOperations")
  .annotateContext(OpenApi.annotations({
    title: "Payout operations (operators)",
    description: "Platform operators move payouts in transit, paid or failed."
  }))
  .add(
    HttpApiEndpoint.get("list", "/admin/communities/:communityId/payouts")
      .setPath(Schema.Struct({ communityId: Uuid }))
      .setUrlParams(PayoutListQuery)
      .addSuccess(Page(Payout))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} The community's payouts, newest first (keyset: \`limit\`, \`cursor\`); \`status\` filters (e.g. \`pending\`: the ones to send).`
      )
      .annotate(OpenApi.Summary, "List a community's payouts (operators)")
  )
  .add(
    HttpApiEndpoint.post("inTransit", "/admin/communities/:communityId/payouts/:id/in-transit")
      .setPath(ADMIN_PATH)
      .addSuccess(Ok(Payout))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found", "not_found"))
      .addError(declared(Conflict, "move", "settings_changed"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} Marks a pending payout as sent to the bank (\`in_transit\`). Money leaves only for approved payout settings of the method the payout was requested with: settings edited after the request (no longer approved, or approved again with another method) answer 409 (\`errors[0].param = "payoutSettings"\`) until they are approved again, or the payout is canceled and requested anew. ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "Mark a payout in transit (operators)")
  )
  .add(
    HttpApiEndpoint.post("paid", "/admin/communities/:communityId/payouts/:id/paid")
      .setPath(ADMIN_PATH)
      .addSuccess(Ok(Payout))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found", "not_found"))
      .addError(declared(Conflict, "move", "settings_changed"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} Marks an in-transit payout as \`paid\` (the bank confirmed it). ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "Mark a payout paid (operators)")
  )
  .add(
    HttpApiEndpoint.post("failed", "/admin/communities/:communityId/payouts/:id/failed")
      .setPath(ADMIN_PATH)
      .setPayload(FailBody)
      .addSuccess(Ok(Payout))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found", "not_found"))
      .addError(declared(Conflict, "move", "settings_changed"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} Marks a payout \`failed\` with a \`reason\` (required): amount and fee go back to available. ${MACHINE}`
      )
      .annotate(OpenApi.Summary, "Mark a payout failed (operators)")
  )
  .middleware(Authenticated)
  .prefix("/api")
{}
