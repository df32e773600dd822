import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Roda } from "../../src/index"

export interface OutboxMail {
  readonly id: string
  readonly communityId: string | null
  readonly recipient: string
  readonly subject: string
  readonly body: string
  readonly kind: string
}

/** Every e-mail written to the outbox for `recipient`, oldest first (recipients are unique per test). */
export const outboxFor = (roda: Roda, recipient: string): Promise<ReadonlyArray<OutboxMail>> =>
  roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<OutboxMail>`SELECT id, community_id, recipient, subject, body, kind FROM outbox
        WHERE lower(recipient) = lower(${recipient}) ORDER BY created_at, id`)
  )

/** The set-password link (`id` and `token`) of the newest e-mail of `kind` sent to `recipient`. */
export const passwordLinkFor = async (roda: Roda, recipient: string, kind = "invite") => {
  const mails = (await outboxFor(roda, recipient)).filter((mail) => mail.kind === kind)
  const mail = mails[mails.length - 1]
  if (mail === undefined) throw new Error(`no ${kind} e-mail for ${recipient}`)
  const match = /https?:\/\/\S+\/set-password\?\S+/.exec(mail.body)
  if (match === null) throw new Error(`no set-password link in the ${kind} e-mail for ${recipient}`)
  const url = new URL(match[0])
  return { url: url.toString(), id: url.searchParams.get("id")!, token: url.searchParams.get("token")!, mail }
}

/** The confirm-email link (`id` and `token`) of the newest e-mail of `kind` sent to `recipient`. */
export const confirmLinkFor = async (roda: Roda, recipient: string, kind = "verify-email") => {
  const mails = (await outboxFor(roda, recipient)).filter((mail) => mail.kind === kind)
  const mail = mails[mails.length - 1]
  if (mail === undefined) throw new Error(`no ${kind} e-mail for ${recipient}`)
  const match = /https?:\/\/\S+\/confirm-email\?\S+/.exec(mail.body)
  if (match === null) throw new Error(`no confirm-email link in the ${kind} e-mail for ${recipient}`)
  const url = new URL(match[0])
  return { id: url.searchParams.get("id")!, token: url.searchParams.get("token")!, mail }
}

/**
 * Waits (up to about 5 s) until `recipient` has at least `count` e-mails of `kind`, and returns them:
 * some e-mails (password recovery) are written just after the answer, off the request path.
 */
export const waitForMail = async (roda: Roda, recipient: string, kind: string, count = 1) => {
  for (let attempt = 0;; attempt++) {
    const mails = (await outboxFor(roda, recipient)).filter((mail) => mail.kind === kind)
    if (mails.length >= count) return mails
    if (attempt >= 500) throw new Error(`no ${kind} e-mail for ${recipient}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
