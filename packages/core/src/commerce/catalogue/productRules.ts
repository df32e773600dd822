import { Effect } from "effect"
import { type CodedFieldError, fieldError, invalidFields } from "../../domain/AppError"
import { currencyOfCountry, type PaymentMethod, paymentMethods, supportedCountries } from "../../domain/Money"
import { catalogueMessages } from "./messages"
import { intervalMonths, type ProductType } from "./Policy"
import type { ProductFields } from "./ProductsRepo"

/** Currencies of the countries business information may name (conventions.md). */
export const supportedCurrencies: ReadonlySet<string> = new Set(supportedCountries.map(currencyOfCountry))

/** The fields a create or edit may send (absent = unchanged on edit, default on create). */
export interface ProductInput {
  readonly title?: string | undefined
  readonly description?: string | null | undefined
  readonly price?: number | undefined
  readonly currency?: string | undefined
  readonly billingInterval?: ProductFields["billingInterval"] | undefined
  readonly commitmentMonths?: number | null | undefined
  readonly allowedPaymentMethods?: ReadonlyArray<PaymentMethod> | undefined
  readonly hasStock?: boolean | undefined
  readonly stockQuantity?: number | null | undefined
}

/** The fields of a new product: what was sent, else the defaults. */
export const newProductFields = (
  input: ProductInput & { readonly title: string; readonly price: number },
  defaultCurrency: string
): ProductFields => ({
  title: input.title,
  description: input.description ?? null,
  price: input.price,
  currency: input.currency ?? defaultCurrency,
  billingInterval: input.billingInterval ?? null,
  commitmentMonths: input.commitmentMonths ?? null,
  allowedPaymentMethods: input.allowedPaymentMethods ?? paymentMethods,
  hasStock: input.hasStock ?? false,
  stockQuantity: input.stockQuantity ?? null
})

/** The fields after an edit: what was sent over what is stored; turning stock off clears the quantity. */
export const editedProductFields = (current: ProductFields, input: ProductInput): ProductFields => {
  const hasStock = input.hasStock ?? current.hasStock
  return {
    title: input.title ?? current.title,
    description: input.description === undefined ? current.description : input.description,
    price: input.price ?? current.price,
    currency: input.currency ?? current.currency,
    billingInterval: input.billingInterval === undefined ? current.billingInterval : input.billingInterval,
    commitmentMonths: input.commitmentMonths === undefined ? current.commitmentMonths : input.commitmentMonths,
    allowedPaymentMethods: input.allowedPaymentMethods ?? current.allowedPaymentMethods,
    hasStock,
    stockQuantity: input.stockQuantity !== undefined
      ? input.stockQuantity
      : hasStock
      ? current.stockQuantity
      : null
  }
}

/** Every rule a product obeys after a create or an edit; all violations are reported at once (400). */
export const checkProductFields = (type: ProductType, fields: ProductFields) => {
  const errors: Array<
    CodedFieldError<
      | "billing_interval_required"
      | "commitment_months_interval"
      | "currency_unsupported"
      | "duplicate_ids"
      | "only_for_one_time"
      | "only_for_subscriptions"
      | "stock_quantity_needs_stock"
      | "stock_quantity_required"
    >
  > = []
  if (!supportedCurrencies.has(fields.currency)) {
    errors.push(fieldError("currency", catalogueMessages.currencyUnsupported(fields.currency)))
  }
  if (new Set(fields.allowedPaymentMethods).size !== fields.allowedPaymentMethods.length) {
    errors.push(fieldError("allowedPaymentMethods", catalogueMessages.duplicateIds("allowedPaymentMethods")))
  }
  if (type === "SUBSCRIPTION") {
    if (fields.billingInterval === null) {
      errors.push(fieldError("billingInterval", catalogueMessages.billingIntervalRequired))
    } else if (
      fields.commitmentMonths !== null && fields.commitmentMonths % intervalMonths[fields.billingInterval] !== 0
    ) {
      errors.push(
        fieldError(
          "commitmentMonths",
          catalogueMessages.commitmentMonthsInterval(intervalMonths[fields.billingInterval], fields.billingInterval)
        )
      )
    }
    if (fields.hasStock) errors.push(fieldError("hasStock", catalogueMessages.onlyForOneTime("hasStock")))
    if (fields.stockQuantity !== null) {
      errors.push(fieldError("stockQuantity", catalogueMessages.onlyForOneTime("stockQuantity")))
    }
  } else {
    if (fields.billingInterval !== null) {
      errors.push(fieldError("billingInterval", catalogueMessages.onlyForSubscriptions("billingInterval")))
    }
    if (fields.commitmentMonths !== null) {
      errors.push(fieldError("commitmentMonths", catalogueMessages.onlyForSubscriptions("commitmentMonths")))
    }
    if (fields.hasStock && fields.stockQuantity === null) {
      errors.push(fieldError("stockQuantity", catalogueMessages.stockQuantityRequired))
    }
    if (!fields.hasStock && fields.stockQuantity !== null) {
      errors.push(fieldError("stockQuantity", catalogueMessages.stockQuantityNeedsStock))
    }
  }
  const [first, ...rest] = errors
  return first === undefined ? Effect.void : Effect.fail(invalidFields([first, ...rest]))
}
