import { Schema } from "effect"
import { Uuid } from "../../domain/Ids"
import { Currency, PaymentMethod } from "../../domain/Money"
import { OneOf } from "../../domain/Role"
import { billingIntervals, productStatuses, productTypes } from "./Policy"

export const MAX_PRICE = 1_000_000_000

const IntBetween = (min: number, max: number, message: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
    message: () => ({ message, override: true })
  })

export const Price = IntBetween(1, MAX_PRICE, `must be an integer number of minor units between 1 and ${MAX_PRICE}`)
export const StockQuantity = IntBetween(0, 10_000_000, "must be an integer between 0 and 10000000")
export const CommitmentMonths = IntBetween(1, 120, "must be an integer number of months between 1 and 120")
export const Position = IntBetween(0, 100_000, "must be an integer between 0 and 100000")
export const PercentOff = IntBetween(1, 100, "must be an integer percentage between 1 and 100")
export const DurationCycles = IntBetween(1, 120, "must be an integer number of billing cycles between 1 and 120")

export const ProductType = OneOf(...productTypes)
export const ProductStatus = OneOf(...productStatuses)
export const BillingInterval = OneOf(...billingIntervals)
export const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(20_000)))
export { Currency, PaymentMethod }

/** Product ids in a body: UUIDs, at most 100; repeats are refused by the service (param named). */
export const ProductIds = Schema.Array(Uuid).pipe(Schema.maxItems(100))

/** A product as the API shows it. */
export const Product = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  type: ProductType,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  price: Schema.Number,
  currency: Schema.String,
  billingInterval: Schema.NullOr(BillingInterval),
  commitmentMonths: Schema.NullOr(Schema.Number),
  allowedPaymentMethods: Schema.Array(PaymentMethod),
  hasStock: Schema.Boolean,
  stockQuantity: Schema.NullOr(Schema.Number),
  status: ProductStatus,
  publishedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Product = typeof Product.Type
