import type { AppError } from "../domain/AppError"
import { languageOf, type Message, type Text } from "../domain/Text"
import { codeOfStatus as oauthCodeOfStatus, OAuthRefusal } from "../oauth/ErrorsApi"

/**
 * The code of a failure whose message has none (words made on the spot, such as a schema's own
 * "must be a string"): what its status means. Schema failures are all `invalid_input`.
 */
const codeOfStatus: Record<number, string> = {
  400: "invalid_input",
  401: "unauthenticated",
  402: "payment_required",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  429: "rate_limited",
  503: "service_unavailable"
}

/** The stable code of a failure: its message's (`Messages.notMember` → `not_member`), else its status's. */
export const codeOf = (error: AppError): string =>
  (error.text as Text & Partial<Pick<Message, "code">>).code ?? codeOfStatus[error.status] ?? "internal_error"

/** The error envelope of an AppError in the language `Accept-Language` asks for. */
export const errorBody = (error: AppError, acceptLanguage: string | undefined) => {
  const language = languageOf(acceptLanguage)
  return {
    success: false as const,
    code: codeOf(error),
    message: error.text[language],
    ...(error.errors
      ? { errors: error.errors.map((e) => ({ param: e.param, msg: e.msg[language], location: e.location })) }
      : {})
  }
}

/**
 * A failure on an OAuth endpoint (`/oauth/*`): `{ error, error_description }` (RFC 6749 §5.2). An
 * `OAuthRefusal` carries its code; a failure the framework made (a malformed form, a lost database)
 * gets the code its status means there.
 */
export const oauthErrorBody = (error: AppError, path: string, acceptLanguage: string | undefined) => {
  const language = languageOf(acceptLanguage)
  const field = error.errors?.[0]
  return {
    error: error instanceof OAuthRefusal ? error.error : oauthCodeOfStatus(error.status, path),
    error_description: field === undefined ? error.text[language] : `${field.param}: ${field.msg[language]}`
  }
}
