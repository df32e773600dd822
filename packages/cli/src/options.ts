import { Args, Options } from "@effect/cli"
import { CommunityId } from "@roda/core"
import { Effect, Option } from "effect"
import { usageError } from "./errors"
import { text } from "./lang"
import { cliMessages } from "./messages"

/** `--as <email>`: the platform operator acting (and recorded as the caller of every service). */
export const as = Options.text("as").pipe(
  Options.withDescription("E-mail of the platform operator acting (listed in PLATFORM_ADMIN_EMAILS and verified)")
)

/** `--json`: the result as JSON on stdout, for scripts. */
export const json = Options.boolean("json").pipe(Options.withDescription("Print the result as JSON"))

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A UUID given on the command line, lower-cased (a malformed one is a usage error, exit 2). */
export const uuid = (name: string, value: string) =>
  UUID.test(value.trim())
    ? Effect.succeed(value.trim().toLowerCase())
    : Effect.fail(usageError(cliMessages.notUuid(name, value)))

/** A community id given on the command line: where the CLI's ids enter the services, as `CommunityId`. */
export const communityUuid = (name: string, value: string) => Effect.map(uuid(name, value), CommunityId.make)

export const isUuid = (value: string) => UUID.test(value.trim())

export const community = Options.text("community").pipe(
  Options.withAlias("c"),
  Options.withDescription("Id of the community")
)

/** An integer option within `min..max` (outside it: a usage error, exit 2). */
export const intBetween = (name: string, min: number, max: number) =>
  Options.integer(name).pipe(
    Options.filterMap(
      (value) => (value >= min && value <= max ? Option.some(value) : Option.none()),
      `--${name} must be an integer between ${min} and ${max}`
    )
  )

export const limit = intBetween("limit", 1, 100).pipe(
  Options.optional,
  Options.withDescription("How many to list (1-100, default 20)")
)

export const cursor = Options.text("cursor").pipe(
  Options.optional,
  Options.withDescription("Cursor of the next page (printed after a page)")
)

export const idArg = (name: string) => Args.text({ name })

/** A reason as the HTTP route takes it: trimmed, 1 to `max` characters. */
export const reasonOf = (value: string, max: number) => {
  const trimmed = value.trim()
  return trimmed.length >= 1 && trimmed.length <= max
    ? Effect.succeed(trimmed)
    : Effect.fail(usageError(text(
      `--reason: deve ter entre 1 e ${max} caracteres.`,
      `--reason: must be between 1 and ${max} characters.`
    )))
}
