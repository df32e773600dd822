import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Roda } from "../../src/index"

/**
 * Runs a query on the database of this Roda (each `startRoda()` has its own in-memory PGlite, so
 * it must go through that Roda's runtime). Rows come back with camelCase keys.
 */
export const query = <Row extends object = Record<string, unknown>>(
  roda: Roda,
  build: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<Row>, unknown>
): Promise<ReadonlyArray<Row>> => roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, build))

export interface OutboxMail {
  readonly id: string
  readonly recipient: string
  readonly subject: string
  readonly body: string
  readonly kind: string
}

/** The e-mails written for a recipient, oldest first. */
export const outboxOf = (roda: Roda, recipient: string) =>
  query<OutboxMail>(roda, (sql) =>
    sql<OutboxMail>`SELECT id, recipient, subject, body, kind FROM outbox
      WHERE lower(recipient) = lower(${recipient}) ORDER BY created_at, id`)

export interface PasswordLink {
  readonly url: string
  readonly id: string
  readonly token: string
}

/** The set-password link (`…/set-password?id=…&token=…`) in an e-mail's text. */
export const linkIn = (mail: OutboxMail): PasswordLink => {
  const match = /(\S+\/set-password\?\S+)/.exec(mail.body)
  if (!match) throw new Error(`no set-password link in ${JSON.stringify(mail.body)}`)
  const url = new URL(match[1]!)
  return { url: url.toString(), id: url.searchParams.get("id") ?? "", token: url.searchParams.get("token") ?? "" }
}

/** The link of the latest e-mail of `kind` sent to `recipient`. */
export const latestLink = async (roda: Roda, recipient: string, kind: string): Promise<PasswordLink> => {
  const mails = (await outboxOf(roda, recipient)).filter((mail) => mail.kind === kind)
  const last = mails[mails.length - 1]
  if (!last) throw new Error(`no ${kind} e-mail for ${recipient}`)
  return linkIn(last)
}

/** Moves every open set-password link of the account into the past. */
export const expireLinks = (roda: Roda, accountId: string) =>
  query(roda, (sql) =>
    sql`UPDATE password_links SET expires_at = now() - interval '1 minute'
      WHERE account_id = ${accountId} AND used_at IS NULL RETURNING id`)
