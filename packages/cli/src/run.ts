import { Command, ValidationError } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { isSettingsError } from "@roda/core/node"
import { Cause, Console, Effect, Layer, Logger, Option } from "effect"
import { command } from "./cli"
import { wantsColor, withColours } from "./colour"
import { CliError, isAppError } from "./errors"
import { helpText } from "./help"
import { type Language, languageOf } from "./lang"

export const VERSION = "0.1.0"

/** Exit codes: 0 done, 1 refused or failed (a domain error, the database unreachable), 2 bad usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const

const oneLine = (message: string) => message.split("\n")[0]!.trim()

/** The error as one line on stderr (the domain's message, in the locale's language), and its exit code. */
const report = (error: unknown, language: Language) => {
  // @effect/cli has already printed what was wrong with the command line.
  if (ValidationError.isValidationError(error)) return Effect.succeed(EXIT.usage)
  if (error instanceof CliError) {
    return Console.error(error.text[language]).pipe(Effect.as(error.usage === true ? EXIT.usage : EXIT.failure))
  }
  if (isAppError(error)) return Console.error(error.text[language]).pipe(Effect.as(EXIT.failure))
  return Console.error(oneLine(String(error))).pipe(Effect.as(EXIT.failure))
}

/** Log lines (start-up, jobs) go to stderr: stdout carries only the result (tables, JSON, CSV). */
const stderrLogger = Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))

/**
 * A defect (configuration refused, database unreachable, a bug): its message, one line; a refused
 * environment, a line per problem.
 */
const defectLine = (defect: unknown) =>
  isSettingsError(defect)
    ? defect.message
    : defect instanceof Error
    ? oneLine(defect.message || String(defect))
    : oneLine(String(defect))

/**
 * Runs `roda` with the process's arguments (`argv` as `process.argv`: node, script, then the
 * arguments) and answers the exit code.
 */
export const run = (argv: ReadonlyArray<string>, env: Record<string, string | undefined> = process.env) => {
  const language = languageOf(env)
  const app = { name: "roda", version: VERSION }
  const colour = { stdout: wantsColor(process.stdout.isTTY, env), stderr: wantsColor(process.stderr.isTTY, env) }
  const help = helpText(command, argv.slice(2), app, colour.stdout)
  const cli = Effect.suspend(() => Option.isSome(help) ? Console.log(help.value) : Command.run(command, app)(argv))
  return cli.pipe(
    Effect.as<number>(EXIT.ok),
    Effect.catchAll((error) => report(error, language)),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.succeed(EXIT.ok)
        : Console.error(
          Option.match(Cause.dieOption(cause), {
            onNone: () => oneLine(Cause.pretty(cause)),
            onSome: defectLine
          })
        ).pipe(Effect.as(EXIT.failure))
    ),
    withColours(colour),
    Effect.provide(Layer.merge(NodeContext.layer, stderrLogger))
  )
}
