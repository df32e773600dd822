import type { AppError } from "../domain/AppError"
import { languageOf } from "../domain/Text"

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
