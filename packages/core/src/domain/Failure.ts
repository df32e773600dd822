import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { AppError, type FieldError } from "./AppError"
import { same } from "./Text"
import type { Message } from "./Text"

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

/** A failure whose code is known to the compiler. */
export type Coded<Kind, Code extends string> = Kind & { readonly code: Code }

/** What every kind shares: the status of its class, the message and its code. */
export abstract class Failure extends AppError {
  readonly code: string
  constructor(message: Message, errors?: ReadonlyArray<FieldError>, headers?: Readonly<Record<string, string>>) {
    super({ status: (new.target as unknown as { readonly status: number }).status, text: message, errors, headers })
    this.code = message.code
  }
}

// `kind` and `status` are literals, so that no kind passes for another.
export class InvalidInput extends Failure {
  static readonly status = 400
  readonly kind = "InvalidInput"
  declare readonly status: 400
}
export class Unauthenticated extends Failure {
  static readonly status = 401
  readonly kind = "Unauthenticated"
  declare readonly status: 401
}
export class PaymentRequired extends Failure {
  static readonly status = 402
  readonly kind = "PaymentRequired"
  declare readonly status: 402
}
export class Forbidden extends Failure {
  static readonly status = 403
  readonly kind = "Forbidden"
  declare readonly status: 403
}
export class NotFound extends Failure {
  static readonly status = 404
  readonly kind = "NotFound"
  declare readonly status: 404
}
export class Conflict extends Failure {
  static readonly status = 409
  readonly kind = "Conflict"
  declare readonly status: 409
}
export class Gone extends Failure {
  static readonly status = 410
  readonly kind = "Gone"
  declare readonly status: 410
}
export class PayloadTooLarge extends Failure {
  static readonly status = 413
  readonly kind = "PayloadTooLarge"
  declare readonly status: 413
}
export class RateLimited extends Failure {
  static readonly status = 429
  readonly kind = "RateLimited"
  declare readonly status: 429
}
export class Unavailable extends Failure {
  static readonly status = 503
  readonly kind = "Unavailable"
  declare readonly status: 503
}

type Kind =
  | typeof InvalidInput
  | typeof Unauthenticated
  | typeof PaymentRequired
  | typeof Forbidden
  | typeof NotFound
  | typeof Conflict
  | typeof Gone
  | typeof PayloadTooLarge
  | typeof RateLimited
  | typeof Unavailable

/** A failure of `kind` with `message`: its code is the message's, known to the compiler. */
export const failure = <K extends Kind, Code extends string>(
  kind: K,
  message: Message<Code>,
  errors?: ReadonlyArray<FieldError>
): Coded<InstanceType<K>, Code> => new kind(message, errors) as Coded<InstanceType<K>, Code>

/** 400 about one field; the message is also the field error's `msg`. */
export const invalid = <Code extends string>(
  param: string,
  message: Message<Code>,
  location: FieldError["location"] = "body"
): Coded<InvalidInput, Code> => failure(InvalidInput, message, [{ param, msg: message, location }])

/** 429 with `Retry-After` (whole seconds, at least 1). */
export const rateLimited = <Code extends string>(message: Message<Code>, retryAfterSeconds: number) =>
  new RateLimited(message, undefined, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds)))
  }) as Coded<RateLimited, Code>

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
