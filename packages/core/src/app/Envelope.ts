import { HttpApiError, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApi, HttpApp } from "@effect/platform"
import { Cause, Effect, FiberRef, Option } from "effect"
import { AppError, badRequest, fieldError, notFound, payloadTooLarge } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { same } from "../domain/Text"
import { rateLimitHeaders, ShownRateLimit } from "../platform/RateLimits"
import { lostConnection, statementCancelled } from "../sql/errors"
import { errorBody, oauthErrorBody } from "./errorBody"
import { makeLocator } from "./routeParams"

/** Seconds a client is asked to wait before retrying after a lost database connection. */
export const RETRY_AFTER_SECONDS = 1

const serviceUnavailable = () =>
  new AppError({
    status: 503,
    text: Messages.serviceUnavailable,
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) }
  })

export class BodyTooLarge extends Error {}

const render = (error: AppError, acceptLanguage: string | undefined) =>
  HttpServerResponse.unsafeJson(errorBody(error, acceptLanguage), {
    status: error.status,
    headers: error.headers ?? {}
  })

/** The OAuth endpoints answer errors as RFC 6749 does (`{ error, error_description }`), not as the envelope. */
const isOAuthPath = (url: string) => new URL(url, "http://roda.local").pathname.startsWith("/oauth/")

const renderOAuth = (error: AppError, url: string, acceptLanguage: string | undefined) =>
  HttpServerResponse.unsafeJson(oauthErrorBody(error, new URL(url, "http://roda.local").pathname, acceptLanguage), {
    status: error.status,
    headers: { ...error.headers, "cache-control": "no-store", pragma: "no-cache" }
  })

interface DecodeIssue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const ACTUAL_MAX = 60

const issueMessage = (issue: DecodeIssue, param: string) => {
  if (issue._tag === "Missing") return `${param} is required`
  // A field the route does not declare (bodies refuse excess properties).
  if (issue._tag === "Unexpected") return `${param} is not allowed`
  // The whole payload has the wrong shape: name what is expected, not the schema's internals.
  if (issue.path.length === 0 && issue._tag === "Type") return "must be a JSON object"
  // Never echo a long input back (it may be up to 1 MB, or a password).
  return issue.message.replace(
    /, actual ([\s\S]*)$/,
    (whole, actual: string) => actual.length > ACTUAL_MAX ? `, actual ${actual.slice(0, ACTUAL_MAX)}…` : whole
  )
}

const samePath = (a: DecodeIssue, b: DecodeIssue) =>
  a.path.length === b.path.length && a.path.every((key, i) => key === b.path[i])

/** `inner` is at `outer` or inside it (e.g. `access.foo` inside `access`). */
const within = (inner: DecodeIssue, outer: DecodeIssue) =>
  inner.path.length >= outer.path.length && outer.path.every((key, i) => key === inner.path[i])

/**
 * One issue per parameter. An optional or nullable field that fails to decode (or has a nested
 * field that fails) also fails the `undefined` / `null` member of its union, and a value outside a
 * union fails every member; those say nothing more.
 */
const usefulIssues = (issues: ReadonlyArray<DecodeIssue>) => {
  const kept = issues.filter((issue) =>
    !(/^Expected (undefined|null), actual/.test(issue.message) &&
      issues.some((other) => other !== issue && within(other, issue)))
  )
  return kept.filter((issue, index) => kept.findIndex((other) => samePath(other, issue)) === index)
}

/**
 * Wraps the whole API so that every answer that is not a success is the error envelope of
 * conventions.md: our own failures, schema decode failures, malformed JSON, unknown routes and
 * defects (500, cause only in the logs).
 */
export const envelopeMiddleware = (api: HttpApi.HttpApi.Any) => {
  const locate = makeLocator(api)
  const toAppError = (
    cause: Cause.Cause<unknown>,
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<AppError> => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      if (error instanceof AppError) return Effect.succeed(error)
      if (error instanceof HttpApiError.HttpApiDecodeError) {
        const path = new URL(request.url, "http://roda.local").pathname
        const errors = usefulIssues(error.issues).map((issue) => {
          const param = issue.path.length > 0 ? issue.path.map(String).join(".") : "body"
          return fieldError(
            param,
            issueMessage(issue, param),
            locate(request.method, path, String(issue.path[0] ?? ""))
          )
        })
        return Effect.succeed(
          badRequest({ ...(errors[0]?.msg ?? Messages.invalidRequest), code: "invalid_input" }, errors)
        )
      }
      if (error instanceof HttpServerError.RouteNotFound) return Effect.succeed(notFound(Messages.routeNotFound))
    }
    const defect = Cause.dieOption(cause)
    if (Option.isSome(defect)) {
      const value = defect.value
      if (value instanceof HttpServerError.RequestError && value.reason === "Decode") {
        return Effect.succeed(badRequest(Messages.invalidJson, [fieldError("body", same("must be valid JSON"))]))
      }
      if (value instanceof BodyTooLarge) return Effect.succeed(payloadTooLarge(Messages.bodyTooLarge))
    }
    // A lost database connection (a killed backend, a network error, a pool that cannot connect):
    // nothing was committed unless COMMIT itself was lost, so the client may retry (with its
    // Idempotency-Key, which then replays a kept answer).
    if ([...Cause.failures(cause), ...Cause.defects(cause)].some(lostConnection)) {
      return Effect.logWarning("Database connection lost", cause).pipe(Effect.as(serviceUnavailable()))
    }
    if ([...Cause.failures(cause), ...Cause.defects(cause)].some(statementCancelled)) {
      return Effect.logError("Statement cancelled (statement_timeout)", cause).pipe(Effect.as(serviceUnavailable()))
    }
    return Effect.logError("Unexpected failure", cause).pipe(
      Effect.as(new AppError({ status: 500, text: Messages.internalError }))
    )
  }
  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> => Effect.flatMap(enveloped(app), showLimit)
  function enveloped<E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> {
    return Effect.catchAllCause(app, (cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) =>
            Effect.map(toAppError(cause, request), (error) =>
              isOAuthPath(request.url)
                ? renderOAuth(error, request.url, request.headers["accept-language"])
                : render(error, request.headers["accept-language"]))
        ))
  }
}

/**
 * The headers of a limit the request counted outside its route's own answer (an API key's, counted
 * by the request middleware), on any answer that does not carry a limit's headers already.
 */
const showLimit = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.map(
    FiberRef.get(ShownRateLimit),
    (shown) =>
      shown === undefined || response.headers["ratelimit"] !== undefined
        ? response
        : HttpServerResponse.setHeaders(response, rateLimitHeaders(shown))
  )
