import { Effect } from "effect"
import { conflict, fieldError, invalidField } from "../../domain/AppError"
import type { Message } from "../../domain/Text"
import { couponMessages } from "./messages"
import type { Duration } from "./Policy"
import type { CouponFields, CouponRow } from "./Repo"

/** The discount terms a coupon is created or edited with (absent = unchanged on edit). */
export interface TermsInput {
  readonly percentOff?: number | null | undefined
  readonly amountOff?: number | null | undefined
  readonly currency?: string | null | undefined
  readonly duration?: Duration | undefined
  readonly durationMonths?: number | null | undefined
}

export type Terms = Pick<CouponFields, "percentOff" | "amountOff" | "currency" | "duration" | "durationMonths">

/** Terms fixed once the coupon has a use (paid or held): the buyers who used it got these. */
const fixedAfterUse = ["code", "percentOff", "amountOff", "currency", "duration", "durationMonths"] as const

const conflictOn = <Code extends string>(param: string, message: Message<Code>) =>
  conflict(message, [fieldError(param, message)])

/**
 * `input` over `current`. Sending one kind of discount drops the other (a percent coupon edited with
 * only `amountOff` becomes an amount coupon); `currency` defaults to `defaultCurrency` for amounts;
 * leaving `repeating` drops `durationMonths`.
 */
export const mergeTerms = (current: Terms, input: TermsInput, defaultCurrency: string): Terms => {
  let { amountOff, currency, duration, durationMonths, percentOff } = current
  if (input.percentOff !== undefined) {
    percentOff = input.percentOff
    if (input.percentOff !== null && input.amountOff === undefined) amountOff = null
  }
  if (input.amountOff !== undefined) {
    amountOff = input.amountOff
    if (input.amountOff !== null && input.percentOff === undefined) percentOff = null
  }
  if (input.currency !== undefined) currency = input.currency
  if (amountOff === null && input.currency == null) currency = null
  if (amountOff !== null && currency === null) currency = defaultCurrency
  if (input.duration !== undefined) {
    duration = input.duration
    if (input.duration !== "repeating" && input.durationMonths === undefined) durationMonths = null
  }
  if (input.durationMonths !== undefined) durationMonths = input.durationMonths
  return { amountOff, currency, duration, durationMonths, percentOff }
}

/** 400 unless the terms hold together: one kind of discount, a currency only with an amount, months only when repeating. */
export const checkTerms = (terms: Terms) => {
  if (terms.percentOff === null && terms.amountOff === null) {
    return Effect.fail(invalidField("percentOff", couponMessages.discountRequired))
  }
  if (terms.percentOff !== null && terms.amountOff !== null) {
    return Effect.fail(invalidField("amountOff", couponMessages.discountBoth))
  }
  if (terms.amountOff === null && terms.currency !== null) {
    return Effect.fail(invalidField("currency", couponMessages.currencyOnlyWithAmount))
  }
  if (terms.duration === "repeating" && terms.durationMonths === null) {
    return Effect.fail(invalidField("durationMonths", couponMessages.durationMonthsRequired))
  }
  if (terms.duration !== "repeating" && terms.durationMonths !== null) {
    return Effect.fail(invalidField("durationMonths", couponMessages.durationMonthsOnlyRepeating))
  }
  return Effect.void
}

/** 400 unless an expiry sent is in the future. */
export const checkExpiry = (expiresAt: Date | null | undefined, now: Date) =>
  expiresAt != null && expiresAt.getTime() <= now.getTime()
    ? Effect.fail(invalidField("expiresAt", couponMessages.expiresAtPast))
    : Effect.void

/**
 * 409 when an edit of a coupon with uses changes fixed terms (naming a field the client sent when
 * one of them changed), or sets `maxRedemptions` below the uses already paid or held.
 */
export const checkEditAfterUse = (current: CouponRow, next: CouponFields, sent: ReadonlyArray<string>) => {
  const uses = current.timesRedeemed + current.timesReserved
  if (uses === 0) return Effect.void
  const changed = fixedAfterUse.filter((field) => current[field] !== next[field])
  const field = changed.find((name) => sent.includes(name)) ?? changed[0]
  if (field !== undefined) return Effect.fail(conflictOn(field, couponMessages.lockedAfterUse(field)))
  if (next.maxRedemptions !== null && next.maxRedemptions < uses) {
    return Effect.fail(conflictOn("maxRedemptions", couponMessages.maxBelowUses(uses)))
  }
  return Effect.void
}
