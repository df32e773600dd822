import { Data } from "effect"
import type { Text } from "./Text"
import { same } from "./Text"

export type ErrorLocation = "body" | "query" | "params" | "headers"

export interface FieldError {
  readonly param: string
  readonly msg: Text
  readonly location: ErrorLocation
}

/**
 * Every failure a client can cause. It carries the HTTP status and the message in both languages;
 * the HTTP layer renders it as the error envelope in the caller's language.
 */
export class AppError extends Data.TaggedError("AppError")<{
  readonly status: number
  readonly text: Text
  readonly errors?: ReadonlyArray<FieldError> | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}> {}

export const fieldError = (param: string, msg: Text | string, location: ErrorLocation = "body"): FieldError => ({
  param,
  msg: typeof msg === "string" ? same(msg) : msg,
  location
})

const withStatus = (status: number) => (text: Text, errors?: ReadonlyArray<FieldError>) =>
  new AppError({ status, text, errors })

export const badRequest = withStatus(400)
export const unauthorized = withStatus(401)
export const forbidden = withStatus(403)
export const notFound = withStatus(404)
export const conflict = withStatus(409)
export const gone = withStatus(410)
export const payloadTooLarge = withStatus(413)
export const unsupportedMediaType = withStatus(415)

/** A 400 about one field; the message also becomes the field error's `msg`. */
export const invalidField = (param: string, text: Text, location: ErrorLocation = "body") =>
  badRequest(text, [fieldError(param, text, location)])

export const tooManyRequests = (text: Text, retryAfterSeconds: number) =>
  new AppError({ status: 429, text, headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) } })
