import { AppError } from "@roda/core"
import { Data } from "effect"
import type { Text } from "./lang"

/**
 * A failure of the command line itself. `usage` (exit 2): the command was given wrongly (a malformed
 * id, an unreadable CSV header); otherwise (exit 1) the request was understood and refused.
 */
export class CliError extends Data.TaggedError("CliError")<{
  readonly text: Text
  readonly usage?: boolean
}> {}

export const usageError = (text: Text) => new CliError({ text, usage: true })
export const failure = (text: Text) => new CliError({ text })

export const isAppError = (error: unknown): error is AppError => error instanceof AppError
