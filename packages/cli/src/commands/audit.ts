import { Command, Options } from "@effect/cli"
import { auditActions, AuditLog } from "@roda/core"
import { Effect, Option } from "effect"
import { usageError } from "../errors"
import { cliMessages } from "../messages"
import { as, cursor, json, limit, uuid } from "../options"
import { type Column, printPage } from "../output"
import { operator, withServices } from "../session"

const action = Options.choice("action", auditActions).pipe(
  Options.optional,
  Options.withDescription("Only this action (e.g. payout.paid, fee_override.set)")
)
const actor = Options.text("actor").pipe(
  Options.optional,
  Options.withDescription("Only what this operator did (account id)")
)
const community = Options.text("community").pipe(
  Options.withAlias("c"),
  Options.optional,
  Options.withDescription("Only what concerned this community (id)")
)
const since = Options.text("since").pipe(
  Options.optional,
  Options.withDescription("From this date (2030-05-01) or date-time with an offset, inclusive")
)
const until = Options.text("until").pipe(
  Options.optional,
  Options.withDescription("Up to this date (its whole day) or date-time with an offset, inclusive")
)

interface Entry {
  readonly id: string
  readonly actor: { readonly id: string; readonly email: string }
  readonly action: string
  readonly target: { readonly type: string; readonly id: string }
  readonly communityId: string | null
  readonly details: unknown
  readonly createdAt: string
}

const columns: ReadonlyArray<Column<Entry>> = [
  ["AT", (row) => row.createdAt],
  ["ACTOR", (row) => row.actor.email],
  ["ACTION", (row) => row.action],
  ["TARGET", (row) => `${row.target.type}:${row.target.id}`],
  ["COMMUNITY", (row) => row.communityId],
  ["DETAILS", (row) => row.details]
]

const optional = <A>(option: Option.Option<A>) => Option.getOrUndefined(option)

const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/

/** A date or date-time as the HTTP route takes it (anything else: a usage error, exit 2). */
const bound = (name: string, value: Option.Option<string>) => {
  if (Option.isNone(value)) return Effect.succeed(undefined)
  const trimmed = value.value.trim()
  const valid = isoDate.test(trimmed) &&
    !Number.isNaN(new Date(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed).getTime())
  return valid ? Effect.succeed(trimmed) : Effect.fail(usageError(cliMessages.notDate(name, value.value)))
}

/** `roda admin audit`: the operator audit log, newest first (the checks of `GET /api/admin/audit`). */
export const audit = Command.make(
  "audit",
  { as, json, action, actor, community, since, until, limit, cursor },
  (input) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(input.as)
      const actorId = Option.isSome(input.actor) ? yield* uuid("actor", input.actor.value) : undefined
      const communityId = Option.isSome(input.community) ? yield* uuid("community", input.community.value) : undefined
      const page = yield* (yield* AuditLog).list(account, {
        action: optional(input.action),
        actor: actorId,
        community: communityId,
        since: yield* bound("since", input.since),
        until: yield* bound("until", input.until),
        limit: optional(input.limit),
        ...(Option.isSome(input.cursor) ? { cursor: input.cursor.value } : {})
      })
      yield* printPage(input.json, page, columns)
    }))
).pipe(Command.withDescription(
  "The operator audit log, newest first: who did what (filters: --action, --actor, --community, --since, --until)"
))
