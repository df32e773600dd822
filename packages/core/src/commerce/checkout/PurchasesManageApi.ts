import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, DateOrInstant, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { saleStatuses } from "./saleStatuses"

const filters = {
  productId: Schema.optional(Uuid),
  profileId: Schema.optional(Uuid),
  paymentMethod: Schema.optional(PaymentMethod),
  status: Schema.optional(OneOf(...saleStatuses)),
  from: Schema.optional(DateOrInstant),
  to: Schema.optional(DateOrInstant)
}

export const SalesQuery = Schema.Struct({ ...PageQuery.fields, ...filters })
export const SalesCsvQuery = Schema.Struct(filters)

const Amount = Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000_000_000)).annotations({
  message: () => ({ message: "must be an integer number of minor units between 1 and 10000000000", override: true })
})
export const RefundBody = Body({ amount: Schema.optional(Amount), reason: Name(500) })

/** A sale as the team sees it (also the `order.*` webhooks' payload). */
export const Sale = Schema.Struct({
  id: Schema.String,
  chargeId: Schema.String,
  status: OneOf(...saleStatuses),
  buyer: Schema.Struct({ profileId: Schema.String, fullName: Schema.String, email: Schema.NullOr(Schema.String) }),
  product: Schema.Struct({ id: Schema.String, title: Schema.String }),
  paymentMethod: Schema.String,
  installments: Schema.Number,
  currency: Schema.String,
  amount: Schema.Number,
  discount: Schema.Number,
  interest: Schema.Number,
  total: Schema.Number,
  fee: Schema.Number,
  net: Schema.Number,
  refundedAmount: Schema.Number,
  paidAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

export const Refund = Schema.Struct({
  id: Schema.String,
  purchaseId: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  full: Schema.Boolean,
  platformFeeReturned: Schema.Number,
  interestReturned: Schema.Number,
  fromPending: Schema.Number,
  fromAvailable: Schema.Number,
  reason: Schema.String,
  createdAt: Schema.String,
  purchase: Sale
})

const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const FILTERS =
  "Filters: `productId`, `profileId` (the buyer), `paymentMethod`, `status` (`paid`, `partially_refunded`, `refunded`), `from` and `to` (a date = whole UTC day, or an instant; both inclusive, on the purchase date)."

export class PurchasesManageApi extends HttpApiGroup.make("purchasesManage")
  .annotateContext(OpenApi.annotations({
    title: "Sales",
    description: "The community's one-time sales: list, CSV export and refunds."
  }))
  .add(
    HttpApiEndpoint.get("list", "/manage/purchases")
      .setUrlParams(SalesQuery)
      .addSuccess(Page(Sale))
      .addError(declared(InvalidInput, "invalid_input", "period_order"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's sales of ONE_TIME products (plans are listed by \`/api/manage/subscriptions\`), newest first (keyset: \`limit\`, \`cursor\`): buyer (profile, name, e-mail), product, amounts in minor units (\`total\` paid by the buyer, platform \`fee\`, \`net\` to the community, \`refundedAmount\`), payment method, status and dates. ${FILTERS}`
      )
      .annotate(OpenApi.Summary, "List sales")
  )
  .add(
    HttpApiEndpoint.get("exportCsv", "/manage/purchases/export.csv")
      .setUrlParams(SalesCsvQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .addError(declared(InvalidInput, "period_order"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${READERS} Every sale matching the filters as CSV (RFC 4180: a header line, CRLF line ends, fields quoted when needed; a text cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading \`'\` so spreadsheets do not run it as a formula), newest first. ${FILTERS}`
      )
      .annotate(OpenApi.Summary, "Export sales as CSV")
  )
  .add(
    HttpApiEndpoint.post("refund", "/manage/purchases/:id/refund")
      .setPath(Schema.Struct({ id: Uuid }))
      .setPayload(RefundBody)
      .addSuccess(Ok(Refund))
      .addError(declared(InvalidInput, "beyond_amount", "gateway_refused", "no_refunds"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "purchase_not_found"))
      .addError(declared(Conflict, "already_refunded", "idempotency_key_reused", "window_closed"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner or admin (403 otherwise; finance reads only). Refunds a purchase: `amount` (minor units, of the charge's total; default all that is left) and `reason` (required). Within the gateway's refund window (sandbox: 180 days after payment; 409 after). Refunding more than is left answers 400 (param `amount`), refunding a purchase already refunded in full 409; concurrent refunds of one purchase run one at a time (the charge's row lock), so the refunded sum never passes the total. The ledger returns the amount to the buyer: the platform gives back its fee and interest in proportion, the community the rest, from the sale's pending money first, then from available (which may go below zero). When the purchase is refunded in full, the access it gave ends, its stock unit and coupon use are released. The buyer gets a receipt e-mail. A purchase of another community answers 404. No network call runs inside a database transaction: the refund is written `pending` (its amount already counted against what is left, under the lock) in one transaction, the gateway is asked with the idempotency key `roda-refund-{refundId}`, and a second transaction posts it (`succeeded`) or gives the amount back (`failed`, 400 with the gateway's reason); a refund left pending by a crash is finished by a durable job that asks the gateway again with the same key (never refunding twice). Stripe: 90-day window (PIX's limit, for every method); a destination charge's refund reverses the transfer and refunds the application fee in proportion. An `Idempotency-Key` header (per caller) replays the first answer of the same request, and answers 409 for another request with the key."
      )
      .annotate(OpenApi.Summary, "Refund a purchase")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
