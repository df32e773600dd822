import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Name } from "../../domain/Fields"
import { IdParam, Uuid } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope, PublicScope } from "../../http/Security"
import { BillingInterval, PaymentMethod, Position } from "./schemas"

const TierOption = Schema.Struct({
  productId: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: BillingInterval,
  commitmentMonths: Schema.NullOr(Schema.Number),
  allowedPaymentMethods: Schema.Array(PaymentMethod)
})

export const PricingTier = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  subscriptionGroupId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  benefits: Schema.Array(Schema.String),
  highlight: Schema.Boolean,
  position: Schema.Number,
  plan: Schema.Struct({ id: Schema.String, name: Schema.String, description: Schema.NullOr(Schema.String) }),
  /** The plan's ACTIVE billing options, in the plan's order. */
  options: Schema.Array(TierOption),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const Benefits = Schema.Array(Name(500)).pipe(Schema.maxItems(50))
const TierDescription = Schema.NullOr(Schema.String.pipe(Schema.maxLength(5000)))

export const NewTier = Body({
  name: Name(200),
  description: Schema.optional(TierDescription),
  benefits: Schema.optional(Benefits),
  highlight: Schema.optional(Schema.Boolean),
  position: Schema.optional(Position),
  subscriptionGroupId: Uuid
})

export const TierChanges = Body({
  name: Schema.optional(Name(200)),
  description: Schema.optional(TierDescription),
  benefits: Schema.optional(Benefits),
  highlight: Schema.optional(Schema.Boolean),
  position: Schema.optional(Position),
  subscriptionGroupId: Schema.optional(Uuid)
})

const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const TIER = "A tier of the public pricing page: `name`, `description`, `benefits` (up to 50 lines), `highlight` " +
  "(the tier to feature), `position` (tiers are shown by position, then id) and `subscriptionGroupId`, the plan it " +
  "sells (a plan of this community: 400 `Plano não encontrado ou não pertence a esta comunidade.`, param " +
  "`subscriptionGroupId`). Each tier is shown with its plan and the plan's ACTIVE billing options (price, currency, " +
  "interval, payment methods); draft and removed products are never shown."

export class PricingTiersApi extends HttpApiGroup.make("pricingTiers")
  .annotateContext(OpenApi.annotations({
    title: "Pricing tiers",
    description: "The public pricing table of the community."
  }))
  .add(
    HttpApiEndpoint.get("list", "/communities/plans")
      .setUrlParams(PageQuery)
      .addSuccess(Page(PricingTier))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional; X-CommunityId names the community). ${TIER} Keyset-paginated (\`limit\`, \`cursor\`).`
      )
      .annotate(OpenApi.Summary, "List pricing tiers")
  )
  .add(
    HttpApiEndpoint.post("create", "/communities/plans")
      .setPayload(NewTier)
      .addSuccess(Ok(PricingTier), { status: 201 })
      .addError(declared(InvalidInput, "plan_unknown"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tier_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} ${TIER} \`position\` defaults to after the last tier; \`highlight\` to false.`
      )
      .annotate(OpenApi.Summary, "Create a pricing tier")
  )
  .add(
    HttpApiEndpoint.get("detail", "/communities/plans/:id")
      .setPath(IdParam)
      .addSuccess(Ok(PricingTier))
      .addError(declared(NotFound, "tier_not_found"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, `Public (token optional). One tier. ${TIER}`)
      .annotate(OpenApi.Summary, "Get a pricing tier")
  )
  .add(
    HttpApiEndpoint.put("update", "/communities/plans/:id")
      .setPath(IdParam)
      .setPayload(TierChanges)
      .addSuccess(Ok(PricingTier))
      .addError(declared(InvalidInput, "plan_unknown"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tier_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Partial edit. ${TIER}`)
      .annotate(OpenApi.Summary, "Update a pricing tier")
  )
  .add(
    HttpApiEndpoint.del("remove", "/communities/plans/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tier_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Removes the tier from the pricing page; the plan stays.`)
      .annotate(OpenApi.Summary, "Delete a pricing tier")
  )
  .prefix("/api")
{}
