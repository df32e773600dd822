import { HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Exit, FiberRef, Schema } from "effect"
import { AppError } from "../domain/AppError"
import { rateLimitHeaders, ShownRateLimit } from "../platform/RateLimits"
import { notPlain } from "./engine/PlainJson"

/** The same failure (its class and code kept), with the limit's headers added. */
const withHeaders = (error: unknown, headers: Record<string, string>) =>
  error instanceof AppError && error.headers?.["ratelimit"] === undefined
    ? Object.assign(Object.create(Object.getPrototypeOf(error) as object) as AppError, error, {
      headers: { ...error.headers, ...headers }
    })
    : error

/**
 * The answer of a route with a limit on abuse: its JSON with the `RateLimit-Policy` and `RateLimit`
 * headers of the limit the request counted (`ShownRateLimit`, set by `RateLimits` in the handler or
 * the service it calls), on its errors too (a 429 carries them already). A plain success schema
 * (`notPlain`) is answered as it is, any other encoded first.
 */
export const rateLimited = <S extends Schema.Schema.Any>(schema: S, options?: { readonly status?: number }) => {
  const plain = notPlain(schema.ast) === undefined
  const encode = Schema.encodeUnknown(schema as unknown as Schema.Schema<unknown, unknown, never>)
  const status = options?.status ?? 200
  return <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
    Effect.gen(function*() {
      yield* FiberRef.set(ShownRateLimit, undefined)
      const exit = yield* Effect.exit(body)
      const shown = yield* FiberRef.get(ShownRateLimit)
      const headers = shown === undefined ? {} : rateLimitHeaders(shown)
      if (Exit.isFailure(exit)) {
        return yield* Effect.failCause(
          shown === undefined ? exit.cause : Cause.map(exit.cause, (error) => withHeaders(error, headers) as E)
        )
      }
      const value = plain ? exit.value : yield* Effect.orDie(encode(exit.value))
      return HttpServerResponse.unsafeJson(value, { status, headers })
    })
}
