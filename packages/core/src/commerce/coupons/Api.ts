import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Instant, Trimmed } from "../../domain/Fields"
import { isUuid, Uuid } from "../../domain/Ids"
import { Currency } from "../../domain/Money"
import { PageQuery } from "../../domain/Pagination"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { isCouponCode, normaliseCode } from "./code"
import { refusalReasons } from "./discount"
import { couponMessages } from "./messages"
import { couponStatuses, durations, redemptionStatuses } from "./Policy"

export const MAX_AMOUNT = 1_000_000_000

const IntBetween = (min: number, max: number, message: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
    message: () => ({ message, override: true })
  })

/** A coupon id: a UUID, or 400 `Valid coupon ID is required` (format validations are in English). */
const CouponId = Schema.String.pipe(
  Schema.filter((value) => isUuid(value.trim()), { message: () => couponMessages.invalidCouponId.en }),
  Schema.annotations({ identifier: "CouponId", format: "uuid" })
)

/** A coupon code as sent: any case, surrounding spaces ignored. */
const CouponCode = Schema.String.pipe(
  Schema.maxLength(100, { message: () => couponMessages.invalidCode.en }),
  Schema.filter((value) => isCouponCode(normaliseCode(value)), { message: () => couponMessages.invalidCode.en })
)

const IdOrCode = Schema.String.pipe(
  Schema.maxLength(100, {
    message: () => "must be a coupon id (UUID) or a code of 3 to 40 letters, digits, hyphens or underscores"
  }),
  Schema.filter((value) => isUuid(value.trim()) || isCouponCode(normaliseCode(value)), {
    message: () => "must be a coupon id (UUID) or a code of 3 to 40 letters, digits, hyphens or underscores"
  }),
  Schema.annotations({ description: "The coupon's id (a UUID) or its code (case-insensitive)." })
)

const PercentOff = IntBetween(1, 100, "must be an integer percentage between 1 and 100")
const AmountOff = IntBetween(1, MAX_AMOUNT, `must be an integer number of minor units between 1 and ${MAX_AMOUNT}`)
const Amount = IntBetween(0, MAX_AMOUNT, `must be an integer number of minor units between 0 and ${MAX_AMOUNT}`)
const DurationMonths = IntBetween(1, 36, "must be an integer number of months between 1 and 36")
const MaxRedemptions = IntBetween(1, 1_000_000, "must be an integer between 1 and 1000000")
const ProductIds = Schema.Array(Uuid).pipe(
  Schema.maxItems(100, { message: () => "must list at most 100 product ids" })
)
const CouponName = Trimmed(200).pipe(Schema.maxLength(200, { message: () => "must be at most 200 characters" }))

const Coupon = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  code: Schema.String,
  name: Schema.NullOr(Schema.String),
  percentOff: Schema.NullOr(Schema.Number),
  amountOff: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  duration: OneOf(...durations),
  durationMonths: Schema.NullOr(Schema.Number),
  applicableProducts: Schema.Array(Schema.String),
  maxRedemptions: Schema.NullOr(Schema.Number),
  timesRedeemed: Schema.Number,
  reservedRedemptions: Schema.Number,
  redemptionsLeft: Schema.NullOr(Schema.Number),
  expiresAt: Schema.NullOr(Schema.String),
  status: OneOf(...couponStatuses),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const Redemption = Schema.Struct({
  id: Schema.String,
  couponId: Schema.String,
  chargeId: Schema.String,
  profileId: Schema.NullOr(Schema.String),
  amount: Schema.NullOr(Schema.Number),
  discount: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  status: OneOf(...redemptionStatuses),
  reservedAt: Schema.String,
  redeemedAt: Schema.NullOr(Schema.String),
  releasedAt: Schema.NullOr(Schema.String)
})

const Validation = Schema.Struct({
  valid: Schema.Boolean,
  reason: Schema.NullOr(OneOf(...refusalReasons)),
  message: Schema.NullOr(Schema.String),
  code: Schema.String,
  productId: Schema.String,
  amount: Schema.Number,
  currency: Schema.String,
  discount: Schema.Number,
  amountAfter: Schema.Number,
  percentOff: Schema.NullOr(Schema.Number),
  amountOff: Schema.NullOr(Schema.Number),
  couponCurrency: Schema.NullOr(Schema.String),
  duration: Schema.NullOr(OneOf(...durations)),
  durationMonths: Schema.NullOr(Schema.Number)
})

const couponFields = {
  code: CouponCode,
  name: Schema.optional(Schema.NullOr(CouponName)),
  percentOff: Schema.optional(Schema.NullOr(PercentOff)),
  amountOff: Schema.optional(Schema.NullOr(AmountOff)),
  currency: Schema.optional(Schema.NullOr(Currency)),
  duration: Schema.optional(OneOf(...durations)),
  durationMonths: Schema.optional(Schema.NullOr(DurationMonths)),
  applicableProducts: Schema.optional(Schema.NullOr(ProductIds)),
  maxRedemptions: Schema.optional(Schema.NullOr(MaxRedemptions)),
  expiresAt: Schema.optional(Schema.NullOr(Instant))
}

export const NewCoupon = Body(couponFields)
export const CouponChanges = Body({ ...couponFields, code: Schema.optional(CouponCode) })
export const StatusChange = Body({ status: OneOf(...couponStatuses) })
export const ValidationBody = Body({
  code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  productId: Uuid,
  amount: Schema.optional(Amount)
})

export const CouponQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(OneOf(...couponStatuses)) })
export const UsageQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(OneOf(...redemptionStatuses)) })

const IdPath = Schema.Struct({ id: CouponId })

const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const STATUS =
  "`status` is the effective one: `expired` once `expiresAt` has passed, else `exhausted` once `timesRedeemed` reached `maxRedemptions`, else the hand-set `active` / `inactive`."
const TERMS =
  "A coupon gives `percentOff` (integer 1..100, rounded half-even once on the amount) or `amountOff` (minor units) in `currency` (defaults to the community's), never both (400, param `amountOff`) nor neither (400, param `percentOff`); the discount is never below 0 nor above the price. `duration`: `once` (default), `repeating` with `durationMonths` (1..36, required then and refused otherwise, 400) or `forever`: how long a subscription keeps the discount. `code`: 3..40 letters, digits, `-` or `_`, case-insensitive (stored upper case), not UUID-shaped, unique among the community's coupons not deleted (409, param `code`). `applicableProducts`: product ids of this community, not deleted (400 `Product not found`, param `applicableProducts`); empty or absent means every product. `maxRedemptions` (1..1000000) and `expiresAt` (ISO 8601 with offset, in the future, 400 otherwise) are optional: none means unlimited, never expires."
const USES =
  "A use is held (`reservedRedemptions`) from the moment a checkout charge reserves it, counted (`timesRedeemed`) when the charge is paid and given back when it expires or fails; held plus counted never pass `maxRedemptions`, whatever the concurrency (`redemptionsLeft`)."

export class CouponsApi extends HttpApiGroup.make("coupons")
  .annotateContext(OpenApi.annotations({
    title: "Coupons",
    description: "Discount coupons: management, usage and validation before checkout."
  }))
  .add(
    HttpApiEndpoint.get("list", "/coupons")
      .setUrlParams(CouponQuery)
      .addSuccess(Page(Coupon))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's coupons, newest first (keyset: \`limit\`, \`cursor\`); \`status\` keeps one effective status. ${STATUS} ${USES}`
      )
      .annotate(OpenApi.Summary, "List coupons")
  )
  .add(
    HttpApiEndpoint.post("create", "/coupons")
      .setPayload(NewCoupon)
      .addSuccess(Ok(Coupon), { status: 201 })
      .addError(
        declared(
          InvalidInput,
          "currency_only_with_amount",
          "discount_both",
          "discount_required",
          "duration_months_only_repeating",
          "duration_months_required",
          "expires_at_past",
          "product_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(declared(Conflict, "code_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, `${MANAGERS} Creates an \`active\` coupon. ${TERMS}`)
      .annotate(OpenApi.Summary, "Create a coupon")
  )
  .add(
    HttpApiEndpoint.post("validate", "/coupons/validate")
      .setPayload(ValidationBody)
      .addSuccess(Ok(Validation))
      .addError(declared(InvalidInput, "product_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Any member of the community (every role: it is what a buyer checks before paying; anonymous buyers get the same answer from checkout). Writes nothing. `productId` must be a product of this community, not deleted (400 `Product not found`, param `productId`); `amount` (minor units, in the product's currency) defaults to the product's price. A code that does not apply is not an error: 200 with `valid: false`, `discount: 0`, a `reason` and its `message` (also the envelope's message): `unknown_code` (no such coupon in this community, deleted ones included), `expired`, `exhausted` (no use left, counting uses held by open checkouts), `inactive`, `not_applicable` (not among `applicableProducts`), `currency_mismatch` (an `amountOff` in another currency than the product's), checked in that order. When it applies: `valid: true`, `discount`, `amountAfter = amount - discount` and the coupon's terms. Checkout applies the same rule and answers 400 (param `couponCode`) with the same message."
      )
      .annotate(OpenApi.Summary, "Validate a coupon code")
  )
  .add(
    HttpApiEndpoint.get("detail", "/coupons/:id")
      .setPath(Schema.Struct({ id: IdOrCode }))
      .addSuccess(Ok(Coupon))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} A UUID is read as the coupon's id, anything else as its code (case-insensitive); a deleted coupon, or one of another community, is not found. ${STATUS} ${USES}`
      )
      .annotate(OpenApi.Summary, "Get a coupon by id or code")
  )
  .add(
    HttpApiEndpoint.get("usage", "/coupons/:id/usage")
      .setPath(IdPath)
      .setUrlParams(UsageQuery)
      .addSuccess(Page(Redemption))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${READERS} The coupon's uses, newest first (keyset: \`limit\`, \`cursor\`): the checkout charge, the buyer's profile when known, the price and the discount given, and the use's status: \`reserved\` (held by an open charge), \`redeemed\` (paid: counted), \`released\` (the charge expired or failed: given back). \`status\` keeps one of them.`
      )
      .annotate(OpenApi.Summary, "List a coupon's uses")
  )
  .add(
    HttpApiEndpoint.put("update", "/coupons/:id")
      .setPath(IdPath)
      .setPayload(CouponChanges)
      .addSuccess(Ok(Coupon))
      .addError(
        declared(
          InvalidInput,
          "currency_only_with_amount",
          "discount_both",
          "discount_required",
          "duration_months_only_repeating",
          "duration_months_required",
          "expires_at_past",
          "product_not_found"
        )
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(declared(Conflict, "code_taken", "expired_is_final", "locked_after_use", "max_below_uses"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Partial update; the result obeys the rules of creation. Sending only \`amountOff\` on a percent coupon (or only \`percentOff\` on an amount coupon) switches its kind; leaving \`repeating\` drops \`durationMonths\`; \`null\` clears \`name\`, \`maxRedemptions\`, \`expiresAt\` and \`applicableProducts\` (every product). Once a use is held or counted, the terms buyers got are fixed: changing \`code\`, \`percentOff\`, \`amountOff\`, \`currency\`, \`duration\` or \`durationMonths\` answers 409 (param = the field), and \`maxRedemptions\` cannot go below the uses held plus counted (409); \`name\`, \`applicableProducts\`, \`expiresAt\` and a higher \`maxRedemptions\` (which makes an \`exhausted\` coupon usable again) may always change. An \`expired\` coupon is final: 409 (param \`status\`). ${TERMS}`
      )
      .annotate(OpenApi.Summary, "Update a coupon")
  )
  .add(
    HttpApiEndpoint.del("remove", "/coupons/:id")
      .setPath(IdPath)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Removes the coupon (soft delete), used or not: it leaves lists and lookups, its code may be given to a new coupon, and checkout no longer accepts it. Its usage history is kept, and a charge that already holds a use is still counted when paid.`
      )
      .annotate(OpenApi.Summary, "Delete a coupon")
  )
  .add(
    HttpApiEndpoint.patch("changeStatus", "/coupons/:id/status")
      .setPath(IdPath)
      .setPayload(StatusChange)
      .addSuccess(Ok(Coupon))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "coupon_not_found"))
      .addError(declared(Conflict, "status_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Moves by hand, from the effective status: \`active -> inactive\`, \`inactive -> active\`. \`expired\` is final and \`exhausted\` ends only by raising \`maxRedemptions\` (PUT); neither can be set by hand. Any other move (including to the current status) answers 409 with \`errors[0].param = "status"\` and the allowed moves. An inactive coupon keeps the uses already held: their charges are still counted when paid.`
      )
      .annotate(OpenApi.Summary, "Activate or deactivate a coupon")
  )
  .prefix("/api")
{}
