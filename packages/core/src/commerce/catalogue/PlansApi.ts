import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Name } from "../../domain/Fields"
import { IdParam, Uuid } from "../../domain/Ids"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { Description, DurationCycles, PercentOff, Product, ProductIds } from "./schemas"

export const Plan = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  position: Schema.Number,
  /** The billing options (SUBSCRIPTION products), in order. */
  productIds: Schema.Array(Schema.String),
  addOnProductIds: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const PlanProduct = Schema.Struct({ ...Product.fields, kind: OneOf("option", "add_on"), position: Schema.Number })

const BillingOptions = ProductIds.pipe(
  Schema.minItems(1, { message: () => "must list at least one billing option (a SUBSCRIPTION product id)" })
)

export const NewPlan = Body({
  name: Name(200),
  description: Schema.optional(Description),
  productIds: BillingOptions,
  addOnProductIds: Schema.optional(ProductIds)
})

export const PlanChanges = Body({
  name: Schema.optional(Name(200)),
  description: Schema.optional(Description),
  productIds: Schema.optional(BillingOptions),
  addOnProductIds: Schema.optional(ProductIds)
})

const OfferMessage = Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))

export const DownsellOffer = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  subscriptionGroupId: Schema.String,
  percentOff: Schema.Number,
  durationCycles: Schema.Number,
  message: Schema.NullOr(Schema.String),
  active: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const NewDownsellOffer = Body({
  percentOff: PercentOff,
  durationCycles: DurationCycles,
  message: Schema.optional(OfferMessage),
  active: Schema.optional(Schema.Boolean)
})

export const DownsellOfferChanges = Body({
  percentOff: Schema.optional(PercentOff),
  durationCycles: Schema.optional(DurationCycles),
  message: Schema.optional(OfferMessage),
  active: Schema.optional(Schema.Boolean)
})

const OfferPath = Schema.Struct({ id: Uuid, offerId: Uuid })

const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const LINK_RULES = "`productIds` are the billing options, in order: at least one, each an existing (not removed) " +
  "SUBSCRIPTION product of the community (400 `Product not found`, param `productIds`), draft or active (only " +
  "active ones are sold and shown on the pricing page). A billing option may be an option of several plans (the " +
  "spec does not forbid it; a checkout of such a product names the plan). `addOnProductIds` (default none) are " +
  "products sold on top of the plan: each must exist in the community and not be removed (400 `One of the add-ons " +
  "does not exist in this community or was deleted.`), must be a monthly SUBSCRIPTION product (spec §2: 400 " +
  "`Add-ons must be monthly SUBSCRIPTION products.`, param `addOnProductIds`; while it is an add-on its " +
  "`billingInterval` cannot change) and must not be a billing option of any plan, this one included (400 `A product that is a plan's billing option " +
  "cannot be another plan's add-on.`, param `addOnProductIds`). Symmetrically, a product that is a plan's add-on " +
  "cannot become a billing option (same message, param `productIds`). Ids may not repeat (400)."

export class PlansApi extends HttpApiGroup.make("subscriptionGroups")
  .annotateContext(OpenApi.annotations({
    title: "Subscription plans",
    description: "Plans grouping billing options and add-ons, in the order shown to buyers."
  }))
  .add(
    HttpApiEndpoint.get("list", "/subscription-groups")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Plan))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's plans in their order (position, then id), keyset-paginated (\`limit\`, ` +
          "`cursor`), each with its billing option and add-on ids. The public view of plans is the pricing page, " +
          "`GET /api/communities/plans`."
      )
      .annotate(OpenApi.Summary, "List subscription plans")
  )
  .add(
    HttpApiEndpoint.post("create", "/subscription-groups")
      .setPayload(NewPlan)
      .addSuccess(Ok(Plan), { status: 201 })
      .addError(
        declared(
          InvalidInput,
          "add_on_is_billing_option",
          "add_on_not_monthly",
          "add_on_unknown",
          "duplicate_ids",
          "product_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Creates a plan (it goes last). ${LINK_RULES}`)
      .annotate(OpenApi.Summary, "Create a subscription plan")
  )
  .add(
    HttpApiEndpoint.patch("reorder", "/subscription-groups/reorder")
      .setPayload(Body({ ids: Schema.Array(Uuid).pipe(Schema.maxItems(1000)) }))
      .addSuccess(Ok(Schema.Array(Plan)))
      .addError(declared(InvalidInput, "plans_reorder_mismatch"))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} \`ids\` is every plan of the community, each once, in the new order (400 otherwise, param ` +
          "`ids`); positions become 0, 1, 2… without gaps. Answers the plans in the new order."
      )
      .annotate(OpenApi.Summary, "Reorder subscription plans")
  )
  .add(
    HttpApiEndpoint.get("detail", "/subscription-groups/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Plan))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${READERS} One plan with its billing option and add-on ids.`)
      .annotate(OpenApi.Summary, "Get a subscription plan")
  )
  .add(
    HttpApiEndpoint.put("update", "/subscription-groups/:id")
      .setPath(IdParam)
      .setPayload(PlanChanges)
      .addSuccess(Ok(Plan))
      .addError(
        declared(
          InvalidInput,
          "add_on_is_billing_option",
          "add_on_not_monthly",
          "add_on_unknown",
          "duplicate_ids",
          "product_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Partial edit; \`productIds\` and \`addOnProductIds\`, when sent, replace the lists. ` +
          `${LINK_RULES} Subscriptions already sold keep their option; new sales see the new lists.`
      )
      .annotate(OpenApi.Summary, "Update a subscription plan")
  )
  .add(
    HttpApiEndpoint.del("remove", "/subscription-groups/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(declared(Conflict, "plan_in_use", "plan_in_use_by_space", "plan_in_use_by_tier"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Removes the plan with its links and downsell offers; its products stay. Refused with 409 ` +
          "while a space's access grants list it, a pricing tier shows it, or subscriptions or sales refer to it: " +
          "take it out of those first. The remaining plans close the gap in their positions."
      )
      .annotate(OpenApi.Summary, "Delete a subscription plan")
  )
  .add(
    HttpApiEndpoint.get("products", "/subscription-groups/:id/products")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Array(PlanProduct)))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The plan's products with every product field: the billing options first (\`kind: option\`), ` +
          "then the add-ons (`kind: add_on`), each in its order (`position`)."
      )
      .annotate(OpenApi.Summary, "List a plan's products")
  )
  .prefix("/api")
{}

const OFFERS = "A downsell offer is shown to a member who cancels a subscription of the plan: `percentOff` (1..100) " +
  "off the next `durationCycles` (1..120) charges, with an optional `message`; only `active` offers are shown."

export class DownsellOffersApi extends HttpApiGroup.make("downsellOffers")
  .annotateContext(OpenApi.annotations({
    title: "Downsell offers",
    description: "Offers shown to a member about to cancel a plan."
  }))
  .add(
    HttpApiEndpoint.get("list", "/subscription-groups/:id/downsell-offers")
      .setPath(IdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(DownsellOffer))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "plan_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} ${OFFERS} The plan's offers, oldest first, keyset-paginated (\`limit\`, \`cursor\`).`
      )
      .annotate(OpenApi.Summary, "List a plan's downsell offers")
  )
  .add(
    HttpApiEndpoint.post("create", "/subscription-groups/:id/downsell-offers")
      .setPath(IdParam)
      .setPayload(NewDownsellOffer)
      .addSuccess(Ok(DownsellOffer), { status: 201 })
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "downsell_offer_not_found", "plan_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} ${OFFERS} \`active\` defaults to true.`)
      .annotate(OpenApi.Summary, "Create a downsell offer")
  )
  .add(
    HttpApiEndpoint.get("detail", "/subscription-groups/:id/downsell-offers/:offerId")
      .setPath(OfferPath)
      .addSuccess(Ok(DownsellOffer))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "downsell_offer_not_found", "plan_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${READERS} One offer of the plan (404 when it belongs to another plan).`)
      .annotate(OpenApi.Summary, "Get a downsell offer")
  )
  .add(
    HttpApiEndpoint.put("update", "/subscription-groups/:id/downsell-offers/:offerId")
      .setPath(OfferPath)
      .setPayload(DownsellOfferChanges)
      .addSuccess(Ok(DownsellOffer))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "downsell_offer_not_found", "plan_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Partial edit (\`active: false\` stops showing it); discounts already granted are kept.`
      )
      .annotate(OpenApi.Summary, "Update a downsell offer")
  )
  .add(
    HttpApiEndpoint.del("remove", "/subscription-groups/:id/downsell-offers/:offerId")
      .setPath(OfferPath)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "downsell_offer_not_found", "plan_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Removes the offer; discounts already granted are kept.`)
      .annotate(OpenApi.Summary, "Delete a downsell offer")
  )
  .prefix("/api")
{}
