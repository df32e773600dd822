import type { AppError } from "../domain/AppError"
import { languageOf } from "../domain/Text"
import { codeOfStatus } from "../oauth/errors"

/** The error envelope of an AppError in the language `Accept-Language` asks for. */
export const errorBody = (error: AppError, acceptLanguage: string | undefined) => {
  const language = languageOf(acceptLanguage)
  return {
    success: false as const,
    message: error.text[language],
    ...(error.errors
      ? { errors: error.errors.map((e) => ({ param: e.param, msg: e.msg[language], location: e.location })) }
      : {})
  }
}

/** An AppError on an OAuth endpoint (`/oauth/*`): `{ error, error_description }` (RFC 6749 §5.2). */
export const oauthErrorBody = (error: AppError, path: string, acceptLanguage: string | undefined) => {
  const language = languageOf(acceptLanguage)
  const field = error.errors?.[0]
  return {
    error: codeOfStatus(error.status, path),
    error_description: field === undefined ? error.text[language] : `${field.param}: ${field.msg[language]}`
  }
}
