import { Args, Command } from "@effect/cli"
import { AccountId, Identity, Sessions } from "@roda/core"
import { Effect, Option } from "effect"
import { failure } from "../errors"
import { cliMessages } from "../messages"
import { as, isUuid, json } from "../options"
import { fields, print } from "../output"
import { operator, withServices } from "../session"

const accountArg = Args.text({ name: "account" }).pipe(
  Args.withDescription("The account: its login e-mail or its id")
)

/** The account named by e-mail or id. */
const accountOf = (given: string) =>
  Effect.gen(function*() {
    const trimmed = given.trim()
    if (isUuid(trimmed)) return AccountId.make(trimmed.toLowerCase())
    const found = yield* (yield* Identity).findByEmail(trimmed)
    if (Option.isNone(found)) return yield* Effect.fail(failure(cliMessages.noAccount(trimmed)))
    return found.value.id
  })

const end = Command.make(
  "end",
  { as, json, account: accountArg },
  (input) =>
    withServices(Effect.gen(function*() {
      const actor = yield* operator(input.as)
      const accountId = yield* accountOf(input.account)
      const ended = yield* (yield* Sessions).endAllAsOperator(actor, accountId)
      yield* print(
        input.json,
        { accountId, ...ended },
        (data) => `Sessions of ${accountId} ended (recorded in the operator audit log)\n${fields(data)}`
      )
    }))
).pipe(Command.withDescription(
  "End every session of an account and revoke its OAuth grants (its tokens answer 401 from their next request)"
))

export const sessions = Command.make("sessions").pipe(
  Command.withDescription("Sign-in sessions of accounts"),
  Command.withSubcommands([end])
)
