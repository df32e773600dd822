import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { type Coded, type Kind } from "./AppError"
import { same } from "./Text"

/**
 * The kinds of failure a client can cause, one class each, with the HTTP status they answer. A
 * failure carries its message (both languages), its code (`Message.code`) and, for invalid input,
 * `errors[]`. The classes extend `AppError`, so that features move to them one at a time: a route
 * that still declares `AppError` accepts them, and the envelope renders both alike.
 *
 * An endpoint declares what it can fail with as `NotFound.codes("course_not_found", …)`: the
 * compiler then refuses a handler that fails with another kind or another code, and the OpenAPI
 * document lists, per operation, each status with the codes it can carry.
 */

export {
  type Coded,
  Conflict,
  Failure,
  failure,
  Forbidden,
  Gone,
  InvalidInput,
  type Kind,
  NotFound,
  PayloadTooLarge,
  PaymentRequired,
  RateLimited,
  Unauthenticated,
  Unavailable,
  UnsupportedMediaType
} from "./AppError"

/** 400 about one field; the message is also the field error's `msg`. */
export { invalidField as invalid, tooManyRequests as rateLimited } from "./AppError"

/** The body a failure answers with, as the envelope writes it (`app/errorBody.ts`). */
const Wire = <const Codes extends ReadonlyArray<string>>(codes: Codes) =>
  Schema.Struct({
    success: Schema.Literal(false),
    code: Schema.Literal(...codes).annotations({
      description: "What happened, as a stable machine-readable name: act on it, not on the words"
    }),
    message: Schema.String.annotations({ description: "What happened, in the caller's language (`Accept-Language`)" }),
    errors: Schema.optional(Schema.Array(Schema.Struct({
      param: Schema.String,
      msg: Schema.String,
      location: Schema.Literal("body", "query", "params", "headers")
    })))
  })

/**
 * What an endpoint may fail with: `kind` carrying one of `codes`. On the wire it is the error
 * envelope with `code` one of `codes` (the OpenAPI document shows it so); a client decodes such a
 * body back into `kind`, with the message in the language it was answered in.
 */
export const declared = <K extends Kind, const Codes extends readonly [string, ...Array<string>]>(
  kind: K,
  ...codes: Codes
): Schema.Schema<Coded<InstanceType<K>, Codes[number]>, Schema.Schema.Encoded<ReturnType<typeof Wire<Codes>>>> => {
  const status = kind.status
  const accepted = new Set<string>(codes)
  const instance = Schema.declare(
    (u): u is Coded<InstanceType<K>, Codes[number]> => u instanceof kind && accepted.has((u as InstanceType<K>).code)
  )
  return Schema.transform(Wire(codes), instance, {
    strict: false,
    decode: (body) => {
      const message = { ...same(body.message), code: body.code }
      const errors = body.errors?.map((e) => ({ param: e.param, msg: same(e.msg), location: e.location }))
      return new kind(message, errors)
    },
    encode: (error) => ({
      success: false as const,
      code: error.code as Codes[number],
      message: error.text.en,
      ...(error.errors === undefined
        ? {}
        : { errors: error.errors.map((e) => ({ param: e.param, msg: e.msg.en, location: e.location })) })
    })
  }).annotations(HttpApiSchema.annotations({ status })) as never
}
