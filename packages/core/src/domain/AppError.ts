import { Data } from "effect"
import type { Message, Text } from "./Text"
import { same } from "./Text"

export type ErrorLocation = "body" | "query" | "params" | "headers"

export interface FieldError {
  readonly param: string
  readonly msg: Text
  readonly location: ErrorLocation
}

/**
 * Every failure a client can cause. It carries the HTTP status and the message in both languages;
 * the HTTP layer renders it as the error envelope in the caller's language. Code fails with one of
 * the kinds below (`NotFound`, `Conflict`…), whose status and code the compiler knows; a bare
 * `AppError` is left only where the framework builds one (the envelope, the request gate).
 */
export class AppError extends Data.TaggedError("AppError")<{
  readonly status: number
  readonly text: Text
  readonly errors?: ReadonlyArray<FieldError> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}> {}

/** A failure whose code is known to the compiler. */
export type Coded<Kind, Code extends string> = Kind & { readonly code: Code }

/** What every kind shares: the status of its class, the message and its code (`Message.code`). */
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
export class UnsupportedMediaType extends Failure {
  static readonly status = 415
  readonly kind = "UnsupportedMediaType"
  declare readonly status: 415
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

export type Kind =
  | typeof InvalidInput
  | typeof Unauthenticated
  | typeof PaymentRequired
  | typeof Forbidden
  | typeof NotFound
  | typeof Conflict
  | typeof Gone
  | typeof PayloadTooLarge
  | typeof UnsupportedMediaType
  | typeof RateLimited
  | typeof Unavailable

/** A field error whose message keeps its code (see `invalidFields`). */
export interface CodedFieldError<Code extends string> extends FieldError {
  readonly msg: Message<Code>
}

export function fieldError<Code extends string>(
  param: string,
  msg: Message<Code>,
  location?: ErrorLocation
): CodedFieldError<Code>
export function fieldError(param: string, msg: Text | string, location?: ErrorLocation): FieldError
export function fieldError(param: string, msg: Text | string, location: ErrorLocation = "body"): FieldError {
  return { param, msg: typeof msg === "string" ? same(msg) : msg, location }
}

/** Whether a failure is of `kind`, narrowing a union of failures to that kind's members. */
export const isKind = <K extends Kind>(kind: K) => <E>(error: E): error is Extract<E, InstanceType<K>> =>
  error instanceof kind

/** A failure of `kind` with `message`: its code is the message's, known to the compiler. */
export const failure = <K extends Kind, Code extends string>(
  kind: K,
  message: Message<Code>,
  errors?: ReadonlyArray<FieldError>,
  headers?: Readonly<Record<string, string>>
): Coded<InstanceType<K>, Code> => new kind(message, errors, headers) as Coded<InstanceType<K>, Code>

const of =
  <K extends Kind>(kind: K) => <Code extends string>(message: Message<Code>, errors?: ReadonlyArray<FieldError>) =>
    failure(kind, message, errors)

export const badRequest = of(InvalidInput)
export const unauthorized = of(Unauthenticated)
export const paymentRequired = of(PaymentRequired)
export const forbidden = of(Forbidden)
export const notFound = of(NotFound)
export const conflict = of(Conflict)
export const gone = of(Gone)
export const payloadTooLarge = of(PayloadTooLarge)
export const unsupportedMediaType = of(UnsupportedMediaType)
export const unavailable = of(Unavailable)

/** A 400 about one field; the message also becomes the field error's `msg`. */
export const invalidField = <Code extends string>(
  param: string,
  message: Message<Code>,
  location: ErrorLocation = "body"
): Coded<InvalidInput, Code> => failure(InvalidInput, message, [fieldError(param, message, location)])

/** 400 naming several fields; the message is the first one's. */
export const invalidFields = <Code extends string>(
  errors: readonly [CodedFieldError<Code>, ...Array<CodedFieldError<Code>>]
): Coded<InvalidInput, Code> => failure(InvalidInput, errors[0].msg, errors)

/** 429 with `Retry-After` (whole seconds, at least 1). */
export const tooManyRequests = <Code extends string>(message: Message<Code>, retryAfterSeconds: number) =>
  failure(RateLimited, message, undefined, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) })
