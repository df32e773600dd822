import { isUuid } from "../../domain/Ids"

/** Codes are compared case-insensitively: stored and looked up in upper case, without surrounding spaces. */
export const normaliseCode = (code: string): string => code.trim().toUpperCase()

/**
 * A normalised code: 3 to 40 letters, digits, `-` or `_`. A UUID-shaped code is refused so that
 * `GET /api/coupons/{id}` (id or code) is never ambiguous.
 */
export const isCouponCode = (code: string): boolean => /^[A-Z0-9_-]{3,40}$/.test(code) && !isUuid(code)
