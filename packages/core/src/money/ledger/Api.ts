import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, DateOrInstant } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { Currency, PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { Authenticated, MemberScope } from "../../http/Security"
import { MAX_AMOUNT, MAX_INSTALLMENTS, MAX_INTEREST_BPS, MIN_INTEREST_BPS } from "./salePricing"
import { ledgerAccounts, transactionKinds } from "./terms"

const IntBetween = (min: number, max: number, message: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
    message: () => ({ message, override: true })
  })

const Amount = IntBetween(0, MAX_AMOUNT, `must be an integer number of minor units between 0 and ${MAX_AMOUNT}`)
const Installments = IntBetween(1, MAX_INSTALLMENTS, `must be an integer between 1 and ${MAX_INSTALLMENTS}`)
const PercentBps = IntBetween(0, 10_000, "must be an integer number of basis points between 0 and 10000")
const Fixed = IntBetween(0, 1_000_000, "must be an integer number of minor units between 0 and 1000000")
const InterestRateBps = IntBetween(
  MIN_INTEREST_BPS,
  MAX_INTEREST_BPS,
  `must be an integer number of basis points between ${MIN_INTEREST_BPS} and ${MAX_INTEREST_BPS}`
)

const MethodFees = Schema.Struct({
  paymentMethod: PaymentMethod,
  percentBps: Schema.Number,
  fixed: Schema.Number,
  maxInstallments: Schema.Number,
  interestRateBps: Schema.Number,
  releaseAfterDays: Schema.Number,
  overridden: Schema.Boolean,
  updatedAt: Schema.NullOr(Schema.String)
})

const CommunityFees = Schema.Struct({
  communityId: Schema.String,
  currency: Schema.String,
  maxInstallments: Schema.Number,
  interestRateBps: Schema.Number,
  methods: Schema.Array(MethodFees)
})

const InstallmentOption = Schema.Struct({
  installments: Schema.Number,
  installmentAmount: Schema.Number,
  total: Schema.Number,
  interest: Schema.Number,
  interestRateBps: Schema.Number
})

const Simulation = Schema.Struct({
  amount: Schema.Number,
  gross: Schema.Number,
  currency: Schema.String,
  paymentMethod: PaymentMethod,
  installments: Schema.Number,
  interestRateBps: Schema.Number,
  installmentAmount: Schema.Number,
  total: Schema.Number,
  interest: Schema.Number,
  feePercentBps: Schema.Number,
  feeFixed: Schema.Number,
  fee: Schema.Number,
  net: Schema.Number,
  releaseAfterDays: Schema.Number,
  options: Schema.Array(InstallmentOption)
})

export const SimulationBody = Body({
  amount: Amount,
  paymentMethod: PaymentMethod,
  installments: Schema.optional(Installments),
  currency: Schema.optional(Currency)
})

export const FeeOverrideBody = Body({
  percentBps: PercentBps,
  fixed: Fixed,
  interestRateBps: Schema.optional(Schema.NullOr(InterestRateBps))
})

const FeeOverridePath = Schema.Struct({ communityId: Uuid, method: PaymentMethod })

const StatementLine = Schema.Struct({
  id: Schema.String,
  transactionId: Schema.String,
  kind: OneOf(...transactionKinds),
  account: OneOf(...ledgerAccounts),
  amount: Schema.Number,
  currency: Schema.String,
  balance: Schema.Number,
  reference: Schema.NullOr(Schema.String),
  description: Schema.String,
  occurredAt: Schema.String,
  postedAt: Schema.String
})

export const StatementQuery = Schema.Struct({
  ...PageQuery.fields,
  from: Schema.optional(DateOrInstant),
  to: Schema.optional(DateOrInstant),
  kind: Schema.optional(OneOf(...transactionKinds)),
  account: Schema.optional(OneOf(...ledgerAccounts)),
  currency: Schema.optional(Currency)
})

const Balance = Schema.Struct({
  currency: Schema.String,
  pending: Schema.Number,
  available: Schema.Number,
  total: Schema.Number.annotations({ description: "`pending + available`." }),
  disputed: Schema.Number.annotations({
    description:
      "Held by open gateway disputes (`community_disputed`): taken from `available` when a dispute opens (a payout cannot take it; `available` may go below zero), given back when it is won, taken back as a chargeback when it is lost. Not part of `total`."
  }),
  settledByGateway: Schema.Number.annotations({
    description:
      "The net of sales the gateway settled straight into the community's own account (Stripe Connect destination charges; `community_gateway_settled`), less their refunds, chargebacks and dispute fees: never part of `available` or `total`, never paid out by Roda."
  })
})

const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const FEES =
  "Platform fee per paid charge = percentage of `amount` (basis points, rounded half-even) + a fixed part in minor units of the sale's currency, never more than the amount; `net = amount - fee`. Defaults: CREDIT_CARD 4.99 % + 49, PIX 1.99 % + 0, BOLETO 1.99 % + 249. Installments: 1..12 for CREDIT_CARD only, buyer-paid compound interest at a monthly rate (default 2.89 %, Price table `pmt = P·i / (1 − (1+i)^−n)` computed exactly and rounded half-even once; none at 1 installment); the interest is kept by the platform and never reduces `net`. Release from pending to available: PIX at once, BOLETO 1 day and CREDIT_CARD 30 days after payment."

export class FeesApi extends HttpApiGroup.make("fees")
  .annotateContext(OpenApi.annotations({
    title: "Fees",
    description: "The platform fees per payment method, and a simulation of a sale."
  }))
  .add(
    HttpApiEndpoint.get("list", "/fees")
      .addSuccess(Ok(CommunityFees))
      .addError(declared(Forbidden, "role_required"))
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's fees in force per payment method: the platform default or a SuperAdmin override (\`overridden\`, \`updatedAt\`), with \`maxInstallments\`, the monthly \`interestRateBps\` (0 where installments are not offered) and \`releaseAfterDays\`. \`currency\` is the community's (business-information country, else BRL): fixed parts are minor units of the sale's currency. ${FEES}`
      )
      .annotate(OpenApi.Summary, "List the fees")
  )
  .add(
    HttpApiEndpoint.post("simulate", "/fees/simulate")
      .setPayload(SimulationBody)
      .addSuccess(Ok(Simulation))
      .addError(
        declared(InvalidInput, "amount_range", "installments_only_card", "installments_range", "installments_too_small")
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} Prices a sale exactly as checkout does (the same \`Pricing.price\`): \`amount\` is the price after discounts (= \`gross\`), \`total\` what the buyer pays (\`installmentAmount × installments\`), \`interest = total − amount\`, \`fee\`, \`net\`. \`installments\` defaults to 1; more than 1 only for CREDIT_CARD (400, param \`installments\`), and an amount too small to split into that many installments is refused the same way. \`currency\` defaults to the community's. \`options\` lists every installment count the method allows for this amount. ${FEES}`
      )
      .annotate(OpenApi.Summary, "Simulate the fees of a sale")
  )
  .prefix("/api")
{}

export class FeeOverridesApi extends HttpApiGroup.make("feeOverrides")
  .annotateContext(OpenApi.annotations({
    title: "Fee overrides (operators)",
    description: "Platform operators set or remove per-community fees."
  }))
  .add(
    HttpApiEndpoint.put("set", "/admin/communities/:communityId/fee-overrides/:method")
      .setPath(FeeOverridePath)
      .setPayload(FeeOverrideBody)
      .addSuccess(Ok(Schema.Struct({ communityId: Schema.String, ...MethodFees.fields })))
      .addError(declared(InvalidInput, "interest_only_card"))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "SuperAdmin only (403 otherwise); no X-CommunityId: the path names the target community (404 when unknown). Replaces the community's fees for one payment method (`CREDIT_CARD`, `PIX`, `BOLETO`): `percentBps` (0..10000) and `fixed` (minor units of the sale's currency, 0..1000000) are required; `interestRateBps` (monthly installment interest, 1..1000) only for CREDIT_CARD (400 otherwise), absent or null keeps the default 2.89 %. Takes effect for the next sale and simulation; sales already recorded keep their figures. Answers the fees now in force for that method."
      )
      .annotate(OpenApi.Summary, "Set a fee override (operators)")
  )
  .add(
    HttpApiEndpoint.del("remove", "/admin/communities/:communityId/fee-overrides/:method")
      .setPath(FeeOverridePath)
      .addSuccess(Ok(Schema.Struct({ communityId: Schema.String, ...MethodFees.fields })))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "SuperAdmin only (403 otherwise); no X-CommunityId (404 for an unknown community). Removes the community's override for that payment method, so the platform defaults apply again; removing one that does not exist is not an error. Answers the fees now in force."
      )
      .annotate(OpenApi.Summary, "Remove a fee override (operators)")
  )
  .prefix("/api")
{}

export class LedgerApi extends HttpApiGroup.make("ledger")
  .annotateContext(OpenApi.annotations({
    title: "Ledger",
    description: "The community's double-entry ledger: entries and balances."
  }))
  .add(
    HttpApiEndpoint.get("entries", "/ledger/entries")
      .setUrlParams(StatementQuery)
      .addSuccess(Page(StatementLine))
      .addError(declared(InvalidInput, "invalid_input", "period_order"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's statement: ledger entries newest first (keyset: \`limit\`, \`cursor\`). The ledger is double entry and append-only; each transaction's entries sum to zero per currency. Accounts: \`community_pending\` and \`community_available\` (the community's money; shown by default), \`platform_fees\`, \`platform_interest\` and \`buyer_payments\` (the gateway's clearing account), each per currency; \`account\` picks one. A positive \`amount\` adds to the account, a negative one takes from it; \`balance\` is that account's running balance in that currency right after the entry (postings are serialised per account, so it is exact). Kinds: \`sale\` (buyer payment, fee, interest, net to pending; to \`community_gateway_settled\` for a sale Stripe Connect settles into the community's own account, never paid out by Roda) and \`release\` (pending to available when due: PIX at once, BOLETO D+1, CREDIT_CARD D+30 from payment); disputes: \`dispute_hold\` (available to \`community_disputed\`), \`dispute_release\` (back) and \`dispute_fee\` (the gateway's fee, to \`gateway_dispute_fees\`). \`occurredAt\` is when it happened (payment, release due time), \`postedAt\` when it was written; \`from\` and \`to\` (a date = whole UTC day, or an instant; both inclusive) filter on \`postedAt\`, \`kind\` and \`currency\` too. Releases that fell due are posted before the statement is read.`
      )
      .annotate(OpenApi.Summary, "List ledger entries")
  )
  .add(
    HttpApiEndpoint.get("balance", "/ledger/balance")
      .addSuccess(Ok(Schema.Array(Balance)))
      .addError(declared(Forbidden, "role_required"))
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's balance per currency, in minor units: \`pending\` (sales not yet released), \`available\` (released, may be paid out) and their \`total\`; apart from them, \`disputed\` (held by open disputes) and \`settledByGateway\` (settled by Stripe Connect into the community's own account, never paid out by Roda). A community that never sold gets its currency with zeros. Releases that fell due are posted first.`
      )
      .annotate(OpenApi.Summary, "Get the ledger balance")
  )
  .prefix("/api")
{}
