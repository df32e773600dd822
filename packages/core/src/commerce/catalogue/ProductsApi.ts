import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Name } from "../../domain/Fields"
import { IdParam } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope, PublicScope } from "../../http/Security"
import {
  BillingInterval,
  CommitmentMonths,
  Currency,
  Description,
  PaymentMethod,
  Price,
  Product,
  ProductStatus,
  ProductType,
  StockQuantity
} from "./schemas"

const PaymentMethods = Schema.Array(PaymentMethod).pipe(
  Schema.minItems(1, { message: () => "must list at least one payment method" }),
  Schema.maxItems(3)
)

const productFields = {
  title: Name(200),
  description: Schema.optional(Description),
  price: Price,
  currency: Schema.optional(Currency),
  billingInterval: Schema.optional(Schema.NullOr(BillingInterval)),
  commitmentMonths: Schema.optional(Schema.NullOr(CommitmentMonths)),
  allowedPaymentMethods: Schema.optional(PaymentMethods),
  hasStock: Schema.optional(Schema.Boolean),
  stockQuantity: Schema.optional(Schema.NullOr(StockQuantity))
}

export const NewProduct = Body({ type: ProductType, ...productFields })

export const ProductChanges = Body({
  ...productFields,
  type: Schema.optional(ProductType),
  title: Schema.optional(productFields.title),
  price: Schema.optional(productFields.price),
  status: Schema.optional(ProductStatus)
})

export const ProductQuery = Schema.Struct({
  ...PageQuery.fields,
  type: Schema.optional(ProductType),
  status: Schema.optional(ProductStatus)
})

const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const PUBLISH_RULES = "Publishing (`DRAFT -> ACTIVE`) needs the community's approved business information (403 " +
  "`To publish and start selling, the community needs approved business information...`) and the product priced " +
  "in the approved country's currency (400 `This product is priced in …, but the approved business information " +
  "uses …`, param `currency`)."
const FIELD_RULES = "`price` in minor units (1..1000000000) of `currency` (ISO 4217; default: the currency of the " +
  "business-information country, whatever its review status, else BRL). `SUBSCRIPTION` needs `billingInterval` " +
  "(MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL) and may have `commitmentMonths` (a multiple of the interval's months: " +
  "the minimum contract length); `ONE_TIME` refuses both (400) and may have `hasStock` with `stockQuantity` " +
  "(required when `hasStock` is true, refused otherwise; both refused on SUBSCRIPTION). `allowedPaymentMethods` is a " +
  "non-empty list of CREDIT_CARD, PIX, BOLETO without repeats (default: all three)."

export class ProductsApi extends HttpApiGroup.make("products")
  .annotateContext(OpenApi.annotations({
    title: "Products",
    description: "Products sold by the community (one-time and subscription billing options)."
  }))
  .add(
    HttpApiEndpoint.get("list", "/products")
      .setUrlParams(ProductQuery)
      .addSuccess(Page(Product))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's products (removed ones excluded), newest first, keyset-paginated (\`limit\`, ` +
          "`cursor`); `type` and `status` filter. Storefronts do not use this list: the public pricing page is " +
          "`GET /api/communities/plans` and a published product is read at `GET /api/products/{id}`."
      )
      .annotate(OpenApi.Summary, "List products")
  )
  .add(
    HttpApiEndpoint.post("create", "/products")
      .setPayload(NewProduct)
      .addSuccess(Ok(Product), { status: 201 })
      .addError(
        declared(
          InvalidInput,
          "billing_interval_required",
          "commitment_months_interval",
          "currency_unsupported",
          "duplicate_ids",
          "only_for_one_time",
          "only_for_subscriptions",
          "stock_quantity_needs_stock",
          "stock_quantity_required"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "product_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Creates a product in \`DRAFT\` (spec §3). ${FIELD_RULES}`)
      .annotate(OpenApi.Summary, "Create a product")
  )
  .add(
    HttpApiEndpoint.get("detail", "/products/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Product))
      .addError(declared(NotFound, "product_not_found"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). Owner, admin and finance read any product of the community; anyone else (a " +
          "member, or no token) only an `ACTIVE` one, the page a buyer sees before checkout: a draft or removed " +
          "product is not found (404)."
      )
      .annotate(OpenApi.Summary, "Get a product")
  )
  .add(
    HttpApiEndpoint.put("update", "/products/:id")
      .setPath(IdParam)
      .setPayload(ProductChanges)
      .addSuccess(Ok(Product))
      .addError(
        declared(
          InvalidInput,
          "add_on_interval_fixed",
          "billing_interval_required",
          "commitment_months_interval",
          "currency_unsupported",
          "duplicate_ids",
          "only_for_one_time",
          "only_for_subscriptions",
          "product_currency_mismatch",
          "product_type_fixed",
          "stock_quantity_needs_stock",
          "stock_quantity_required"
        )
      )
      .addError(declared(Forbidden, "publish_needs_approved_business", "role_required"))
      .addError(declared(NotFound, "product_not_found"))
      .addError(declared(Conflict, "product_status_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Partial edit; the result obeys the rules of creation. ${FIELD_RULES} \`type\` never changes ` +
          "(400, param `type`). `status` moves the product: `ACTIVE` on a draft publishes it with the checks of " +
          `\`POST /api/products/{id}/publish\` (${PUBLISH_RULES}); \`DRAFT\` on an active product unpublishes it ` +
          "(new sales stop; what was sold is untouched); the current status is no move. An `ACTIVE` product stays " +
          "editable; changing its currency is checked as publishing is (same 403/400). Price, interval, stock and " +
          "payment methods apply to new sales only; purchases and subscriptions keep the terms they were sold with. " +
          "`stockQuantity` sets the units left (a restock), under the product's row lock. A plan's add-on keeps " +
          "`billingInterval: MONTHLY` (400, param `billingInterval`, while it is an add-on: spec §2)."
      )
      .annotate(OpenApi.Summary, "Update a product")
  )
  .add(
    HttpApiEndpoint.post("publish", "/products/:id/publish")
      .setPath(IdParam)
      .addSuccess(Ok(Product))
      .addError(declared(InvalidInput, "product_currency_mismatch"))
      .addError(declared(Forbidden, "publish_needs_approved_business", "role_required"))
      .addError(declared(NotFound, "product_not_found"))
      .addError(declared(Conflict, "product_status_move"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} \`DRAFT -> ACTIVE\` (spec §3). ${PUBLISH_RULES} Publishing an active product answers 409 ` +
          "(param `status`, with the allowed moves). States: `DRAFT -> ACTIVE` (publish), `ACTIVE -> DRAFT` " +
          "(unpublish, with `PUT status=DRAFT`)."
      )
      .annotate(OpenApi.Summary, "Publish a product")
  )
  .add(
    HttpApiEndpoint.del("remove", "/products/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "product_not_found"))
      .addError(declared(Conflict, "product_in_use_by_plan", "product_in_use_by_space"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Soft delete: the product leaves lists and can no longer be sold, and purchases, subscriptions ` +
          "and coupons keep pointing at it. Refused with 409 while it is a plan's billing option (take it out of the " +
          "plan first) or a space's access grant (take it out of the space first); as a plan's add-on it is simply " +
          "dropped from that plan's add-ons."
      )
      .annotate(OpenApi.Summary, "Delete a product")
  )
  .prefix("/api")
{}
