import { HttpApiSchema } from "@effect/platform"
import { ParseResult, Schema } from "effect"
import { AppError, fieldError } from "../domain/AppError"
import { same } from "../domain/Text"

const errorEnvelopeJsonSchema = {
  type: "object",
  required: ["success", "code", "message"],
  properties: {
    success: { type: "boolean", enum: [false] },
    code: {
      type: "string",
      description:
        "What happened, as a stable machine-readable name (`not_member`, `insufficient_balance`): act on it, not on the words"
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

const WireFieldError = Schema.Struct({
  param: Schema.String,
  msg: Schema.String,
  location: Schema.Literal("body", "query", "params", "headers")
})

/** The error envelope as a client receives it. */
const WireError = Schema.Struct({
  success: Schema.Literal(false),
  message: Schema.String,
  errors: Schema.optional(Schema.Array(WireFieldError))
})

const decodeWireError = ParseResult.decodeUnknown(WireError)

/**
 * An AppError as it is (the server's side), or read back from the envelope (a client's side, e.g.
 * `HttpApiClient`): the message arrives in one language, so it stands for both.
 */
const appErrorSchema = (accepts: (error: AppError) => boolean, statusOfWire: number) =>
  Schema.declare([], {
    decode: () => (input) =>
      input instanceof AppError
        ? accepts(input)
          ? ParseResult.succeed(input)
          : ParseResult.fail(new ParseResult.Forbidden(WireError.ast, input))
        : ParseResult.map(decodeWireError(input), (wire) =>
          new AppError({
            status: statusOfWire,
            text: same(wire.message),
            errors: wire.errors?.map((each) => fieldError(each.param, each.msg, each.location))
          })),
    encode: () => (input, _, ast) =>
      input instanceof AppError && accepts(input)
        ? ParseResult.succeed(input)
        : ParseResult.fail(new ParseResult.Type(ast, input))
  })

/**
 * The error envelope at one status, for the contract: handlers fail with `AppError`, and the
 * envelope middleware renders it in the caller's language; a client decodes the envelope back.
 */
const errorAt = (status: number, description: string) =>
  appErrorSchema((error) => error.status === status, status).annotations({
    identifier: `Error${status}`,
    description,
    jsonSchema: errorEnvelopeJsonSchema,
    ...HttpApiSchema.annotations({ status })
  })

export const BadRequest = errorAt(400, "Invalid input: `errors[]` names each parameter (param, msg, location)")
export const Unauthorized = errorAt(401, "Missing, invalid or expired token")
export const PaymentRequired = errorAt(402, "The payment was declined")
export const Forbidden = errorAt(403, "Not a member, or the role does not allow it")
export const NotFound = errorAt(404, "Not found in this community")
export const Conflict = errorAt(409, "Conflicts with the current state")
export const Gone = errorAt(410, "A link that was already used or has expired")
export const TooManyRequests = errorAt(429, "Too many attempts; see Retry-After")

/**
 * Any AppError, whatever its status (what a middleware may fail with). Undeclared by status, so a
 * client reads it at 500, `HttpApiSchema`'s status for an error without one.
 */
export const AnyAppError = appErrorSchema(() => true, 500).annotations({
  identifier: "AppError",
  jsonSchema: errorEnvelopeJsonSchema
})
