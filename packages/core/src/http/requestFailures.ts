import { Schema } from "effect"
import { Conflict, InvalidInput, PayloadTooLarge, Unavailable, UnsupportedMediaType } from "../domain/AppError"
import { declared } from "../domain/Failure"

/**
 * What the request's machinery answers around any handler, as the contract declares it: the request
 * gate (`app/requestGate.ts`), the schemas of parameters and bodies, `Idempotency-Key`
 * (`app/requestTransaction.ts`) and a database that cannot answer (`app/Envelope.ts`).
 * `scripts/declare-errors.mjs` adds them to each operation by its shape.
 */

/** Every operation: a NUL character in the query, and a database that cannot answer now. */
export const RequestRefused = Schema.Union(
  declared(InvalidInput, "nul_character"),
  declared(Unavailable, "service_unavailable")
)

/** An operation with path or query parameters: a value its schema refuses. */
export const ParametersRefused = declared(InvalidInput, "invalid_input")

/** An operation with a JSON body. */
export const BodyRefused = Schema.Union(
  declared(InvalidInput, "invalid_input", "invalid_json", "json_too_deep", "lone_surrogate"),
  declared(PayloadTooLarge, "body_too_large"),
  declared(UnsupportedMediaType, "multipart_body")
)

/** A write (POST, PUT, PATCH, DELETE), which may carry an `Idempotency-Key`. */
export const WriteRefused = Schema.Union(
  declared(InvalidInput, "idempotency_key_invalid"),
  declared(Conflict, "idempotency_key_reused")
)
