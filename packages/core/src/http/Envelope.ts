import { HttpApiError, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApi, HttpApp } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { AppError, badRequest, fieldError, notFound, payloadTooLarge } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { same } from "../domain/Text"
import { errorBody } from "./errorBody"
import { makeLocator } from "./routeParams"

export class BodyTooLarge extends Error {}

const render = (error: AppError, acceptLanguage: string | undefined) =>
  HttpServerResponse.unsafeJson(errorBody(error, acceptLanguage), {
    status: error.status,
    headers: error.headers ?? {}
  })

interface DecodeIssue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const ACTUAL_MAX = 60

const issueMessage = (issue: DecodeIssue, param: string) => {
  if (issue._tag === "Missing") return `${param} is required`
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

/**
 * One issue per parameter. An optional field that fails to decode also fails the `undefined`
 * member of its union, and a value outside a union fails every member; those say nothing more.
 */
const usefulIssues = (issues: ReadonlyArray<DecodeIssue>) => {
  const kept = issues.filter((issue) =>
    !(issue.message.startsWith("Expected undefined, actual") &&
      issues.some((other) => other !== issue && samePath(other, issue)))
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
        return Effect.succeed(badRequest(errors[0]?.msg ?? Messages.invalidRequest, errors))
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
    return Effect.logError("Unexpected failure", cause).pipe(
      Effect.as(new AppError({ status: 500, text: Messages.internal }))
    )
  }
  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.catchAllCause(app, (cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) =>
            Effect.map(toAppError(cause, request), (error) => render(error, request.headers["accept-language"]))
        ))
}
