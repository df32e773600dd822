import { Command, Options } from "@effect/cli"
import { AccountId, EmailConflicts, Erasure, Identity } from "@roda/core"
import { Effect, Option } from "effect"
import { usageError } from "../errors"
import { text } from "../lang"
import { as, intBetween, isUuid, json, reasonOf } from "../options"
import { fields, print, table } from "../output"
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

/** Exactly one of `--email` and `--id`: a usage error otherwise. */
const oneTarget = (email: Option.Option<string>, id: Option.Option<string>) =>
  Option.isSome(email) === Option.isSome(id)
    ? Effect.fail(usageError(text("Informe --email ou --id (um deles).", "Give --email or --id (one of them).")))
    : Option.isSome(id) && !isUuid(id.value)
    ? Effect.fail(
      usageError(text(`--id: "${id.value}" não é um identificador (UUID).`, `--id: "${id.value}" is not an id (UUID).`))
    )
    : Effect.succeed(
      Option.isSome(email)
        ? { email: email.value.trim() }
        : { id: AccountId.make(Option.getOrThrow(id).trim().toLowerCase()) }
    )

const erase = Command.make(
  "erase",
  {
    as,
    json,
    email: Options.text("email").pipe(Options.optional, Options.withDescription("The account's login e-mail")),
    id: Options.text("id").pipe(
      Options.optional,
      Options.withDescription("The account's id (a second run after the e-mail was erased)")
    ),
    deleteContent: Options.boolean("delete-content").pipe(
      Options.withDescription("Delete the member's posts and comments too (otherwise kept under \"Ex-membro\")")
    ),
    reason: Options.text("reason").pipe(
      Options.withDescription("The member's written request (a reference: ticket, e-mail date), kept in the audit log")
    )
  },
  (input) =>
    withServices(Effect.gen(function*() {
      const actor = yield* operator(input.as)
      const reason = yield* reasonOf(input.reason, 1000)
      const target = yield* oneTarget(input.email, input.id)
      let accountId: AccountId
      if ("email" in target) {
        const found = yield* (yield* Identity).findByEmail(target.email)
        // erased already (the address is gone) or never registered: nothing to erase, not a failure
        if (Option.isNone(found)) {
          return yield* print(
            input.json,
            { email: target.email, erased: false },
            () =>
              `No live account has the e-mail ${target.email}: nothing to erase (erased already, or never registered).`
          )
        }
        accountId = found.value.id
      } else {
        accountId = target.id
      }
      const erased = yield* (yield* Erasure).eraseAsOperator(actor, accountId, {
        deleteContent: input.deleteContent,
        reason
      })
      yield* print(
        input.json,
        { ...erased, erased: true },
        (data) =>
          `${
            data.alreadyErased ? "Account already erased: nothing changed" : "Account erased"
          } (recorded in the operator audit log)\n${fields(data)}`
      )
    }))
).pipe(Command.withDescription(
  "Erase an account on the member's written request (members' data rights): sessions, keys and OAuth grants end, e-mail, names and phone are erased, profiles become \"Ex-membro\"; refused while the account owns a community with other members"
))

export const accounts = Command.make("accounts").pipe(
  Command.withDescription("Accounts that need an operator"),
  Command.withSubcommands([emailConflicts, erase])
)
