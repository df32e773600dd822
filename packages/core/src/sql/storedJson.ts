import { Schema } from "effect"

/**
 * A jsonb column Roda wrote itself from a value it had checked (an object as stored), typed as `A`
 * without decoding it field by field again: only its shape as an object is checked when read.
 */
export const storedObject = <A extends object>() =>
  Schema.declare((u: unknown): u is A => typeof u === "object" && u !== null)
