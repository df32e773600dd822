import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { AppError } from "../domain/AppError"

const errorEnvelopeJsonSchema = {
  type: "object",
  required: ["success", "code", "message"],
  properties: {
    success: { type: "boolean", enum: [false] },
    code: {
      type: "string",
      description: "What happened, as a stable machine-readable name (`not_member`, `insufficient_balance`): act on it, not on the words"
    },
    message: { type: "string", description: "What happened, in words, in the caller's language (`Accept-Language`)" },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["param", "msg", "location"],
        properties: {
          param: { type: "string" },
          msg: { type: "string" },
          location: { type: "string", enum: ["body", "query", "params", "headers"] }
        }
      }
    }
  }
} as const

/**
 * The error envelope at one status, for the contract: handlers fail with `AppError`, and the
 * envelope middleware renders it in the caller's language.
 */
const errorAt = (status: number, description: string) =>
  Schema.declare((u): u is AppError => u instanceof AppError && u.status === status, {
    identifier: `Error${status}`,
    description,
    jsonSchema: errorEnvelopeJsonSchema
  }).annotations(HttpApiSchema.annotations({ status }))

export const BadRequest = errorAt(400, "Invalid input: `errors[]` names each parameter (param, msg, location)")
export const Unauthorized = errorAt(401, "Missing, invalid or expired token")
export const PaymentRequired = errorAt(402, "The payment was declined")
export const Forbidden = errorAt(403, "Not a member, or the role does not allow it")
export const NotFound = errorAt(404, "Not found in this community")
export const Conflict = errorAt(409, "Conflicts with the current state")
export const Gone = errorAt(410, "A link that was already used or has expired")
export const TooManyRequests = errorAt(429, "Too many attempts; see Retry-After")

/** Any AppError, whatever its status (what a middleware may fail with). */
export const AnyAppError = Schema.declare((u): u is AppError => u instanceof AppError, {
  identifier: "AppError",
  jsonSchema: errorEnvelopeJsonSchema
})
