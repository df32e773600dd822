import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { Account } from "../domain/Caller"
import { requirePlatformAdmin } from "../domain/Policy"
import { traced } from "../platform/traced"

/** One account of a pair (or more) whose e-mails are the same address once normalised (NFC, lower case). */
export interface EmailConflict {
  /** The address they share: lower case, NFC. */
  readonly emailKey: string
  readonly accountId: string
  /** As stored (not rewritten: the unique index keeps one spelling per address). */
  readonly email: string
  readonly fullName: string
  readonly emailVerified: boolean
  readonly createdAt: string
  readonly foundAt: string
}

const ConflictRow = Schema.Struct({
  emailKey: Schema.String,
  accountId: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  foundAt: Schema.DateFromSelf
})
const decodeConflicts = Schema.decodeUnknown(Schema.Array(ConflictRow))

/**
 * Accounts that migration 0039 found sharing an address once normalised, for an operator to resolve
 * (one holder changes their e-mail, or an account is removed). A group leaves the list by itself
 * when fewer than two of its accounts still spell that address.
 */
export class EmailConflicts extends Effect.Service<EmailConflicts>()("@roda/core/EmailConflicts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const list = traced("EmailConflicts.list")(function*(operator: Account, limit: number) {
      yield* requirePlatformAdmin(operator)
      const rows = yield* sql`SELECT email_key, account_id, email, full_name, email_verified_at,
          created_at, found_at
        FROM (
          SELECT c.email_key, a.id AS account_id, a.email, a.full_name, a.email_verified_at, a.created_at,
            c.found_at, count(*) OVER (PARTITION BY c.email_key) AS sharing
          FROM account_email_conflicts c JOIN accounts a ON a.id = c.account_id
          WHERE lower(normalize(a.email, NFC)) = c.email_key
        ) still
        WHERE sharing > 1
        ORDER BY email_key, created_at, account_id
        LIMIT ${limit}`.pipe(Effect.flatMap(decodeConflicts), Effect.orDie)
      return rows.map((row): EmailConflict => ({
        emailKey: row.emailKey,
        accountId: row.accountId,
        email: row.email,
        fullName: row.fullName,
        emailVerified: row.emailVerifiedAt !== null,
        createdAt: row.createdAt.toISOString(),
        foundAt: row.foundAt.toISOString()
      }))
    })

    return { list }
  })
}) {}
