import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { Ids } from "./Ids"
import { Options } from "./Options"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  /** What the e-mail is about, e.g. `invite`, `password-recovery`; used by stats. */
  readonly kind: string
  readonly communityId?: string | null | undefined
}

/**
 * Every e-mail is written to the `outbox` table, in the caller's transaction, so none is lost
 * and none goes out for work that rolled back. With SMTP configured it is also sent.
 */
export class Mailer extends Context.Tag("@roda/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    Mailer,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ids = yield* Ids
      const options = yield* Options
      const smtp = options.smtpUrl ? yield* makeSmtpSender(options.smtpUrl) : undefined
      return {
        send: (mail) =>
          Effect.gen(function*() {
            const id = yield* ids.next
            yield* sql`INSERT INTO outbox ${
              sql.insert({
                id,
                communityId: mail.communityId ?? null,
                recipient: mail.to,
                subject: mail.subject,
                body: mail.text,
                kind: mail.kind
              })
            }`
            if (smtp) {
              yield* smtp(mail).pipe(
                Effect.zipRight(sql`UPDATE outbox SET sent_at = now() WHERE id = ${id}`),
                Effect.catchAllCause((cause) => Effect.logWarning("SMTP delivery failed; kept in outbox", cause)),
                Effect.forkDaemon
              )
            }
          }).pipe(Effect.orDie)
      }
    })
  )
}

const makeSmtpSender = (url: string) =>
  Effect.promise(async () => {
    const nodemailer = await import("nodemailer")
    const transport = nodemailer.createTransport(url)
    return (mail: Mail) =>
      Effect.tryPromise(() =>
        transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, from: transport.options.from as string | undefined ?? "Roda <no-reply@roda.local>" })
      )
  })
