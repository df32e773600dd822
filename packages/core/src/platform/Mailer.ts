import { SqlClient } from "@effect/sql"
import { Context, Deferred, Duration, Effect, Fiber, Layer, Queue, Schedule, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { Ids } from "./Ids"
import { Options } from "./Options"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  /** What the e-mail is about, e.g. `invite`, `password-recovery`; used by stats. */
  readonly kind: string
  readonly communityId?: string | null | undefined
  /** An HTML alternative to `text` (it may show `attachments` by `cid:`). */
  readonly html?: string | undefined
  readonly attachments?: ReadonlyArray<MailAttachment> | undefined
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** A file sent with an e-mail; with `contentId`, an inline part an HTML body shows as `cid:<contentId>`. */
export interface MailAttachment {
  readonly filename: string
  readonly contentType: string
  /** The bytes, in base64. */
  readonly content: string
  readonly contentId?: string | undefined
}

/** An e-mail as the outbox worker hands it over: `messageId` is its stable `Message-ID` header. */
export interface OutgoingMail extends Mail {
  /** `<outbox row id@host of publicBaseUrl>`: the same on every attempt, so a relay can drop a repeat. */
  readonly messageId: string
}

/**
 * Sends one e-mail (the outbox worker marks it sent when this succeeds). Its failure's message is
 * logged: it names the relay and the cause, and never a credential.
 */
export type Deliver = (mail: OutgoingMail) => Effect.Effect<void, unknown>

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
/** How long a claim on an outbox row lasts unless renewed (the worker renews it every third of it while sending). */
export const OUTBOX_LEASE = Duration.minutes(1)

/**
 * Every e-mail is written to the `outbox` table in the caller's transaction, so none is lost and
 * none goes out for work that rolled back. With SMTP configured, a delivery worker sends what the
 * outbox holds (`deliverOutbox`). When its process closes (a server stopping, a `roda` command or an
 * MCP stdio session ending), the worker finishes the e-mail in flight and sends those due, for at
 * most 10 seconds.
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
        const worker = yield* Effect.forkScoped(
          deliverOutbox(deliver, { host: new URL(options.publicBaseUrl).hostname, wake, closing }).pipe(
            Effect.provideService(SqlClient.SqlClient, sql)
          )
        )
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
                kind: mail.kind,
                html: mail.html ?? null,
                attachments: mail.attachments === undefined ? null : JSON.stringify(mail.attachments),
                headers: mail.headers === undefined ? null : JSON.stringify(mail.headers)
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

const OutboxRow = Schema.Struct({
  id: Schema.String,
  recipient: Schema.String,
  subject: Schema.String,
  body: Schema.String,
  kind: Schema.String,
  attempts: Schema.Number,
  html: Schema.NullOr(Schema.String),
  attachments: Schema.NullOr(Schema.Unknown),
  headers: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String }))
})
type OutboxRow = typeof OutboxRow.Type

const decodeOutbox = decodeRows(OutboxRow)

/**
 * The outbox delivery worker. It claims one row at a time with `FOR UPDATE SKIP LOCKED` (several
 * processes may share the database) and a lease, sends outside any transaction while renewing the
 * lease every third of it, and marks the row sent right after the relay accepts it: the claim
 * outlives the send however slow the relay, so no other worker sends the same row meanwhile. A
 * process that dies between the send and the mark leaves a row that is sent again once its lease
 * lapses, with the same `Message-ID` (`<row id@host>`), which relays and inboxes deduplicate.
 */
export const deliverOutbox = (
  deliver: Deliver,
  config: {
    readonly host: string
    readonly lease?: Duration.DurationInput
    readonly wake?: Queue.Queue<void>
    /** Once done, the worker sends what is due and returns (a failed e-mail stays leased, so it ends). */
    readonly closing?: Deferred.Deferred<void>
  }
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lease = Duration.decode(config.lease ?? OUTBOX_LEASE)
    const leaseMs = Duration.toMillis(lease)
    const claim = sql`
      UPDATE outbox SET attempts = attempts + 1, lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
      WHERE id = (
        SELECT id FROM outbox
        WHERE sent_at IS NULL AND attempts < ${MAX_ATTEMPTS} AND (lease_until IS NULL OR lease_until < now())
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, recipient, subject, body, kind, attempts, html, attachments, headers`.pipe(
      Effect.flatMap(decodeOutbox)
    )
    // The claim is this worker's while `attempts` is the value it set.
    const renew = (row: OutboxRow) =>
      sql`UPDATE outbox SET lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
        WHERE id = ${row.id} AND attempts = ${row.attempts} AND sent_at IS NULL`.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning(`Outbox lease of ${row.id} not renewed`, cause))
      )
    const deliverOne = (row: OutboxRow) =>
      Effect.scoped(
        Effect.gen(function*() {
          yield* Effect.forkScoped(
            Effect.repeat(renew(row), Schedule.spaced(Duration.millis(leaseMs / 3))).pipe(
              Effect.delay(Duration.millis(leaseMs / 3))
            )
          )
          yield* deliver({
            to: row.recipient,
            subject: row.subject,
            text: row.body,
            kind: row.kind,
            messageId: `<${row.id}@${config.host}>`,
            ...(row.html === null ? {} : { html: row.html }),
            ...(Array.isArray(row.attachments) ? { attachments: row.attachments as Array<MailAttachment> } : {}),
            ...(row.headers === null ? {} : { headers: row.headers })
          })
        })
      ).pipe(
        Effect.zipRight(sql`UPDATE outbox SET sent_at = now(), lease_until = NULL WHERE id = ${row.id}`),
        Effect.catchAll((error) =>
          Effect.logWarning(`E-mail ${row.id} not delivered (${reasonOf(error)}); it stays in the outbox`)
        )
      )
    /** Claims and sends rows one by one until none is left to claim. */
    const round: Effect.Effect<void> = claim.pipe(
      Effect.flatMap(([row]) =>
        row === undefined ? Effect.void : Effect.zipRight(deliverOne(row), Effect.suspend(() => round))
      ),
      Effect.catchAllCause((cause) => Effect.logWarning("Outbox delivery round failed", cause))
    )
    const closing = config.closing ?? (yield* Deferred.make<void>())
    const idle = Effect.raceAll([
      Effect.sleep(POLL),
      Deferred.await(closing),
      ...(config.wake ? [config.wake.take] : [])
    ])
    while (!(yield* Deferred.isDone(closing))) {
      yield* round
      yield* idle
    }
    yield* round
  })
