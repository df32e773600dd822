import { Command, Options } from "@effect/cli"
import { EmailConflicts } from "@roda/core"
import { Effect } from "effect"
import { as, intBetween, json } from "../options"
import { print, table } from "../output"
import { operator, withServices } from "../session"

const emailConflicts = Command.make(
  "email-conflicts",
  { as, json, limit: intBetween("limit", 1, 1000).pipe(Options.withDefault(100)) },
  ({ as, json, limit }) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(as)
      const rows = yield* (yield* EmailConflicts).list(account, limit)
      yield* print(json, rows, (list) =>
        list.length === 0 ? "No accounts share an e-mail address." : table(list, [
          ["ADDRESS", (row) => row.emailKey],
          ["ACCOUNT", (row) => row.accountId],
          ["STORED_EMAIL", (row) => JSON.stringify(row.email)],
          ["NAME", (row) => row.fullName],
          ["VERIFIED", (row) => (row.emailVerified ? "yes" : "no")],
          ["CREATED", (row) => row.createdAt]
        ]))
    }))
).pipe(Command.withDescription(
  "List accounts whose e-mails are the same address once normalised (NFC, lower case), found by migration 0039, for an operator to resolve"
))

export const accounts = Command.make("accounts").pipe(
  Command.withDescription("Accounts that need an operator"),
  Command.withSubcommands([emailConflicts])
)
