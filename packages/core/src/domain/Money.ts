import { Schema } from "effect"
import { OneOf } from "./Role"

/** An amount of money in integer minor units (cents); never a float. */
export const MinorUnits = Schema.Int.pipe(Schema.nonNegative())

/** An ISO 4217 code, upper case. */
export const Currency = Schema.String.pipe(
  Schema.maxLength(3, { message: () => "must be an ISO 4217 currency code such as BRL" }),
  Schema.pattern(/^[A-Z]{3}$/, { message: () => "must be an ISO 4217 currency code such as BRL" })
)

export const PaymentMethod = OneOf("CREDIT_CARD", "PIX", "BOLETO")
export type PaymentMethod = typeof PaymentMethod.Type
export const paymentMethods: ReadonlyArray<PaymentMethod> = ["CREDIT_CARD", "PIX", "BOLETO"]

const currencyByCountry: Readonly<Record<string, string>> = {
  BR: "BRL",
  US: "USD",
  PT: "EUR",
  ES: "EUR",
  DE: "EUR",
  FR: "EUR",
  IT: "EUR",
  IE: "EUR",
  NL: "EUR",
  BE: "EUR",
  AT: "EUR",
  FI: "EUR",
  GR: "EUR",
  LU: "EUR",
  GB: "GBP",
  AR: "ARS",
  MX: "MXN",
  CL: "CLP",
  CO: "COP",
  PE: "PEN",
  UY: "UYU",
  PY: "PYG",
  BO: "BOB",
  CA: "CAD",
  AU: "AUD",
  NZ: "NZD",
  CH: "CHF",
  JP: "JPY",
  IN: "INR",
  ZA: "ZAR",
  AO: "AOA",
  MZ: "MZN"
}

/** Countries whose currency is known (ISO 3166-1 alpha-2). */
export const supportedCountries: ReadonlyArray<string> = Object.keys(currencyByCountry)

/** The currency of a business-information country (conventions.md); BRL when there is none. */
export const currencyOfCountry = (country: string | null | undefined): string =>
  (country && currencyByCountry[country.toUpperCase()]) || "BRL"

/** Digits after the decimal point (ISO 4217); most currencies have 2. */
const zeroDecimal = new Set(["CLP", "PYG", "JPY", "COP"])
export const minorDigits = (currency: string): number => zeroDecimal.has(currency) ? 0 : 2

/** `numerator / denominator` rounded half-even (banker's rounding) to an integer; denominator > 0. */
export const roundHalfEven = (numerator: bigint, denominator: bigint): bigint => {
  const quotient = numerator / denominator
  const remainder = numerator % denominator
  const floor = remainder < 0n ? quotient - 1n : quotient
  const rest = numerator - floor * denominator // 0 <= rest < denominator
  const twice = rest * 2n
  if (twice < denominator) return floor
  if (twice > denominator) return floor + 1n
  return floor % 2n === 0n ? floor : floor + 1n
}

/** `1234` BRL → `"12.34 BRL"` (the form of spec §7's "Insufficient balance. Available: ..."). */
export const formatMoney = (amount: number, currency: string): string => {
  const digits = minorDigits(currency)
  const sign = amount < 0 ? "-" : ""
  const abs = Math.abs(amount)
  if (digits === 0) return `${sign}${abs} ${currency}`
  const unit = 10 ** digits
  const whole = Math.floor(abs / unit)
  const fraction = String(abs % unit).padStart(digits, "0")
  return `${sign}${whole}.${fraction} ${currency}`
}
