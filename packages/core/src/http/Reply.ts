import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import type { Pagination } from "../domain/Envelope"
import { type Language, languageOf, type Text } from "../domain/Text"

/** The language of the current request (`Accept-Language`; Portuguese by default). */
export const requestLanguage: Effect.Effect<Language, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => languageOf(request.headers["accept-language"])
)

/** `{ success: true, message, data }` in the caller's language. */
export const ok = <A>(message: Text, data: A) =>
  Effect.map(requestLanguage, (language) => ({ success: true as const, message: message[language], data }))

export const page = <A>(message: Text, result: { readonly items: ReadonlyArray<A>; readonly pagination: Pagination }) =>
  Effect.map(requestLanguage, (language) => ({
    success: true as const,
    message: message[language],
    data: result.items,
    pagination: result.pagination
  }))
