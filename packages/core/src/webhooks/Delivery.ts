import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Either, Layer, Queue, Schedule } from "effect"
import { CommunityNotices } from "../communities/Memberships"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { type PublicAnswer, PublicFetch } from "../platform/PublicFetch"
import { WebhookMessages as M } from "./messages"
import { WebhooksRepo } from "./Repo"
import type { ClaimedRow } from "./rows"
import { signatures } from "./signature"

/** After attempt n (1-based) fails, the next comes this much later; after the last, none (8 attempts). */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
/** A 2xx within this long is a success. */
const TIMEOUT = Duration.seconds(10)
/** Deliveries in flight in one process, and to one endpoint among them (a slow one holds only its own). */
export const IN_FLIGHT = 64
export const PER_ENDPOINT = 4
const LEASE_MS = 60_000
const POLL = Duration.millis(500)
/** An endpoint failing this many deliveries in a row, or for this long, is disabled. */
const MAX_FAILURES = 50
const FAILING_FOR_MS = 5 * 24 * 3600_000
const KEEP_ANSWER_BYTES = 64 * 1024

/** Reads (and drops) up to 64 KiB of the answer, so its connection can be used again. */
const drain = async (answer: PublicAnswer) => {
  let read = 0
  for await (const chunk of answer.body) {
    read += chunk.byteLength
    if (read > KEEP_ANSWER_BYTES) break
  }
  return answer.status
}

const errorText = (error: unknown) =>
  error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error)

/**
 * The delivery worker of this process: claims due deliveries (`WebhooksRepo.claim`), sends each as
 * Standard Webhooks describe (`webhook-id`, `webhook-timestamp`, `webhook-signature`), and records
 * the answer. Up to `IN_FLIGHT` at once, `PER_ENDPOINT` per endpoint, so a slow or dead endpoint
 * waits on itself only. Runs where durable jobs run (`runJobs`).
 */
export const DeliveryWorker = Layer.scopedDiscard(Effect.gen(function*() {
  const options = yield* Options
  if (options.runJobs === false) return
  const repo = yield* WebhooksRepo
  const sql = yield* SqlClient.SqlClient
  const fetcher = yield* PublicFetch
  const mailer = yield* Mailer
  const notices = yield* CommunityNotices
  const anyAddress = options.webhooksAllowPrivate === true
  const wake = yield* Queue.sliding<void>(1)
  const inFlight = new Map<string, number>()
  let total = 0
  // Deliveries end with the process (interrupted, their lease lets another process send them again).
  const scope = yield* Effect.scope

  const tellOwners = (disabled: { communityId: string; url: string }) =>
    Effect.gen(function*() {
      for (const to of yield* notices.ownerEmails(disabled.communityId)) {
        yield* mailer.send({
          to,
          subject: M.disabledSubject.pt,
          text:
            `O webhook ${disabled.url} falhou repetidamente e foi desativado. Corrija o destino e ative-o de novo (PUT /api/webhooks/{id} com "enabled": true).\n\n` +
            `The webhook ${disabled.url} kept failing and was disabled. Fix the receiver and enable it again (PUT /api/webhooks/{id} with "enabled": true).`,
          kind: "webhook-disabled",
          communityId: disabled.communityId
        })
      }
    })

  /**
   * Successes are written together, one statement for all that finished meanwhile (at most 256): a
   * delivery's slot is free once it is answered, and the database sees one write for many. One
   * lost in a crash before its write is sent again when its lease ends (receivers dedupe on
   * `webhook-id`).
   */
  const successes = yield* Queue.unbounded<{ id: string; attempts: number; statusCode: number }>()
  yield* Effect.forkScoped(
    Queue.takeBetween(successes, 1, 256).pipe(
      Effect.flatMap((done) => repo.succeeded([...done])),
      Effect.catchAllCause((cause) => Effect.logWarning("Webhook successes not recorded", cause)),
      Effect.forever
    )
  )

  /** A failed attempt; the owners' e-mail is written with the disabling it tells of, or neither is. */
  const recordFailure = (row: ClaimedRow, outcome: Either.Either<number, unknown>) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const delay = RETRY_DELAYS_MS[row.attempts - 1]
      const disabled = yield* repo.failed(
        {
          id: row.id,
          endpointId: row.endpointId,
          attempts: row.attempts,
          statusCode: Either.isRight(outcome) ? outcome.right : null,
          error: Either.isRight(outcome) ? `HTTP ${outcome.right}` : errorText(outcome.left),
          retryAt: delay === undefined ? null : new Date(now.getTime() + delay)
        },
        now,
        MAX_FAILURES,
        new Date(now.getTime() - FAILING_FOR_MS)
      )
      if (disabled._tag === "Some") yield* tellOwners(disabled.value)
    }).pipe(sql.withTransaction)

  const record = (row: ClaimedRow, outcome: Either.Either<number, unknown>) =>
    Either.isRight(outcome) && outcome.right >= 200 && outcome.right < 300
      ? successes.offer({ id: row.id, attempts: row.attempts, statusCode: outcome.right })
      : recordFailure(row, outcome)

  const deliver = (row: ClaimedRow) =>
    Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      const timestamp = Math.floor(nowMs / 1000)
      const body = JSON.stringify({ type: row.eventType, timestamp: row.eventAt.toISOString(), data: row.data })
      const secrets = row.previousSecret !== null && row.previousSecretUntil !== null &&
          row.previousSecretUntil.getTime() > nowMs
        ? [row.secret, row.previousSecret]
        : [row.secret]
      const outcome = yield* Effect.tryPromise({
        try: (signal) =>
          fetcher.post(row.url, {
            body,
            signal,
            anyAddress,
            headers: {
              "content-type": "application/json",
              "user-agent": "Roda-Webhooks/1.0",
              "webhook-id": row.eventId,
              "webhook-timestamp": String(timestamp),
              "webhook-signature": signatures(secrets, row.eventId, timestamp, body)
            }
          }).then(drain),
        catch: (error) => error
      }).pipe(
        Effect.timeoutFail({ duration: TIMEOUT, onTimeout: () => new Error("no answer within 10 s") }),
        Effect.either
      )
      yield* record(row, outcome)
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("Webhook delivery not recorded", cause)),
      Effect.ensuring(Effect.sync(() => {
        total--
        const left = (inFlight.get(row.endpointId) ?? 1) - 1
        if (left <= 0) inFlight.delete(row.endpointId)
        else inFlight.set(row.endpointId, left)
        wake.unsafeOffer(undefined)
      }))
    )

  const round = Effect.gen(function*() {
    const free = IN_FLIGHT - total
    if (free <= 0) return 0
    const nowMs = yield* Clock.currentTimeMillis
    const busy = [...inFlight].filter(([, count]) => count >= PER_ENDPOINT).map(([id]) => id)
    const claimed = yield* repo.claim(free, PER_ENDPOINT, busy, new Date(nowMs), new Date(nowMs + LEASE_MS))
    for (const row of claimed) {
      total++
      inFlight.set(row.endpointId, (inFlight.get(row.endpointId) ?? 0) + 1)
      yield* Effect.forkIn(deliver(row), scope)
    }
    return claimed.length
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("Webhook round failed", cause).pipe(Effect.as(0))))

  const loop = round.pipe(
    Effect.flatMap((claimed) =>
      claimed > 0 && total < IN_FLIGHT ? Effect.void : Effect.race(wake.take, Effect.sleep(POLL))
    ),
    Effect.repeat(Schedule.forever)
  )
  yield* Effect.forkScoped(loop)
}))
