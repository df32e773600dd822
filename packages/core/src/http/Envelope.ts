import { HttpApiError, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApi, HttpApp } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { AppError, badRequest, fieldError, notFound, payloadTooLarge } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { languageOf, same } from "../domain/Text"
import { makeLocator } from "./routeParams"

export class BodyTooLarge extends Error {}

const render = (error: AppError, acceptLanguage: string | undefined) => {
  const language = languageOf(acceptLanguage)
  return HttpServerResponse.unsafeJson(
    {
      success: false,
      message: error.text[language],
      ...(error.errors ? { errors: error.errors.map((e) => ({ param: e.param, msg: e.msg[language], location: e.location })) } : {})
    },
    { status: error.status, headers: error.headers ?? {} }
  )
}

const issueMessage = (issue: { readonly _tag: string; readonly message: string }, param: string) =>
  issue._tag === "Missing" ? `${param} is required` : issue.message

/**
 * Wraps the whole API so that every answer that is not a success is the error envelope of
 * conventions.md: our own failures, schema decode failures, malformed JSON, unknown routes and
 * defects (500, cause only in the logs).
 */
export const envelopeMiddleware = (api: HttpApi.HttpApi.Any) => {
  const locate = makeLocator(api)
  const toAppError = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest): Effect.Effect<AppError> => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      if (error instanceof AppError) return Effect.succeed(error)
      if (error instanceof HttpApiError.HttpApiDecodeError) {
        const path = new URL(request.url, "http://roda.local").pathname
        const errors = error.issues.map((issue) => {
          const param = issue.path.length > 0 ? issue.path.map(String).join(".") : "body"
          return fieldError(param, issueMessage(issue, param), locate(request.method, path, String(issue.path[0] ?? "")))
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
        : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.map(toAppError(cause, request), (error) => render(error, request.headers["accept-language"]))))
}
