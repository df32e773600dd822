import { SqlClient } from "@effect/sql"
import { Context, Deferred, Duration, Effect, Fiber, Layer, Queue } from "effect"
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
 * Sends one e-mail (the outbox worker marks it sent when this succeeds). Its failure's message is
 * logged: it names the relay and the cause, and never a credential.
 */
export type Deliver = (mail: Mail) => Effect.Effect<void, unknown>

/**
 * SMTP, a port: the platform connects to `options.smtpUrl` (`@roda/core/node`: nodemailer). A
 * platform without SMTP provides `MailTransport.unavailable`, and then `smtpUrl` fails at start.
 */
export class MailTransport extends Context.Tag("@roda/core/MailTransport")<MailTransport, {
  /** A sender over `url` (`smtp://` or `smtps://`) with `from` as the sender. */
  readonly smtp: (url: string, from: string) => Effect.Effect<Deliver>
}>() {
  static readonly unavailable = Layer.succeed(MailTransport, {
    smtp: () => Effect.dieMessage("options.smtpUrl: this platform cannot send e-mail over SMTP")
  })
}

/** Delivery attempts before an e-mail is given up (counted as failed by `MailStats`). */
export const MAX_ATTEMPTS = 5
const POLL = Duration.seconds(2)
/** How long a closing process gives its delivery worker to finish the e-mails in flight and the last ones due. */
const CLOSING_GRACE = Duration.seconds(10)

/**
 * Every e-mail is written to the `outbox` table in the caller's transaction, so none is lost and
 * none goes out for work that rolled back. With SMTP configured, a delivery worker sends what the
 * outbox holds: it leases a batch with `FOR UPDATE SKIP LOCKED` (several processes may share the
 * database), sends outside any transaction, and marks each row sent or counts the failed attempt.
 * When its process closes (a server stopping, a `roda` command or an MCP stdio session ending), the
 * worker finishes the e-mails in flight and sends those due, for at most 10 seconds.
 */
export class Mailer extends Context.Tag("@roda/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.scoped(
    Mailer,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ids = yield* Ids
      const options = yield* Options
      const transport = yield* MailTransport
      const wake = yield* Queue.sliding<void>(1)
      if (options.smtpUrl) {
        const deliver = yield* transport.smtp(options.smtpUrl, options.mailFrom ?? "Roda <no-reply@roda.local>")
        const closing = yield* Deferred.make<void>()
        const worker = yield* Effect.forkScoped(deliveryWorker(sql, deliver, wake, closing))
        // Runs before the fork's interruption: the worker finishes, or is interrupted after the grace.
        yield* Effect.addFinalizer(() =>
          Deferred.succeed(closing, undefined).pipe(
            Effect.zipRight(Fiber.await(worker).pipe(Effect.timeout(CLOSING_GRACE))),
            Effect.ignore
          )
        )
      }
      return {
        send: (mail) =>
          Effect.gen(function*() {
            yield* sql`INSERT INTO outbox ${
              sql.insert({
                id: yield* ids.next,
                communityId: mail.communityId ?? null,
                recipient: mail.to,
                subject: mail.subject,
                body: mail.text,
                kind: mail.kind
              })
            }`
            yield* wake.offer(undefined)
          }).pipe(Effect.orDie)
      }
    })
  )
}

/** Why a delivery failed, in one line: the transport's message (the relay and its answer). */
const reasonOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/**
 * Delivers rounds until `closing`; then finishes the round in flight and sends what is due (the
 * e-mails a short-lived process, such as a `roda` command, wrote just before it closed), so that none
 * is delivered without being marked sent, which would send it again once its lease ran out.
 */
const deliveryWorker = (
  sql: SqlClient.SqlClient,
  deliver: Deliver,
  wake: Queue.Queue<void>,
  closing: Deferred.Deferred<void>
) => {
  const lease = sql<{ id: string; recipient: string; subject: string; body: string; kind: string }>`
    UPDATE outbox SET attempts = attempts + 1, lease_until = now() + interval '1 minute'
    WHERE id IN (
      SELECT id FROM outbox
      WHERE sent_at IS NULL AND attempts < ${MAX_ATTEMPTS} AND (lease_until IS NULL OR lease_until < now())
      ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED)
    RETURNING id, recipient, subject, body, kind`
  const deliverOne = (row: { id: string; recipient: string; subject: string; body: string; kind: string }) =>
    deliver({ to: row.recipient, subject: row.subject, text: row.body, kind: row.kind }).pipe(
      Effect.zipRight(sql`UPDATE outbox SET sent_at = now(), lease_until = NULL WHERE id = ${row.id}`),
      Effect.catchAll((error) =>
        Effect.logWarning(`E-mail ${row.id} not delivered (${reasonOf(error)}); it stays in the outbox`)
      )
    )
  /** One batch leased and delivered; how many it leased. */
  const round = lease.pipe(
    Effect.tap((rows) => Effect.forEach(rows, deliverOne, { discard: true })),
    Effect.map((rows) => rows.length),
    Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("Outbox delivery round failed", cause), 0))
  )
  const waitForWork = Effect.raceAll([wake.take, Effect.sleep(POLL), Deferred.await(closing)])
  return Effect.gen(function*() {
    while (!(yield* Deferred.isDone(closing))) {
      yield* round
      yield* waitForWork
    }
    // A failed e-mail stays leased for a minute, so the rounds end once nothing due is left.
    yield* Effect.repeat(round, { while: (leased) => leased > 0 })
  })
}
