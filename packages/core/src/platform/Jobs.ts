import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Clock, Context, Duration, Effect, Layer, Queue, Schedule, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { afterCommit } from "./AfterCommit"
import { Ids } from "./Ids"
import { Options } from "./Options"

export interface JobSpec {
  /** Names the handler, e.g. `certificates.issue`. */
  readonly kind: string
  readonly payload: unknown
  /** When the job becomes due (epoch milliseconds); now when absent. */
  readonly runAt?: number | undefined
  /** While a job of this kind and key is unfinished, enqueueing it again does nothing. */
  readonly key?: string | undefined
  /** Attempts before the job is given up as `failed` (default 5). */
  readonly maxAttempts?: number | undefined
}

export interface JobRun {
  readonly id: string
  /** 1 on the first run. */
  readonly attempt: number
  readonly maxAttempts: number
}

/**
 * A handler must be safe to run again: a process that dies mid-job leaves it to be claimed once its
 * lease expires, so its effects should be written in its own transactions with per-item state.
 */
export type JobHandler = (payload: unknown, run: JobRun) => Effect.Effect<void, unknown>

export interface HandlerOptions {
  /** How long a claimed job is held before another worker may take it again (default 30 s). */
  readonly leaseSeconds?: number | undefined
}

/**
 * The durable job queue (architecture rule 10): rows in `jobs`, claimed with `FOR UPDATE SKIP LOCKED`
 * and a lease, so several processes share the work and a crash loses none of it. Time comes from
 * `Clock`, so tests drive due dates with `TestClock` and `runDue`.
 */
export class Jobs extends Context.Tag("@roda/core/Jobs")<Jobs, {
  /** Writes the job in the caller's transaction; the job id, or null when an open one has its key. */
  readonly enqueue: (job: JobSpec) => Effect.Effect<string | null>
  /**
   * `enqueue` as a statement for the caller's own `WITH` (a change that is one statement): the job is
   * written with the change, only when `when` (SQL over the caller's other CTEs) holds.
   */
  readonly enqueueWithin: (job: JobSpec, when: Fragment) => Effect.Effect<Fragment>
  /** Registers the handler of a kind; features call it while their layer is built. */
  readonly handle: (kind: string, handler: JobHandler, options?: HandlerOptions) => Effect.Effect<void>
  /** Claims and runs the due jobs of registered kinds now (up to `limit`); how many ran. */
  readonly runDue: (
    options?: { readonly limit?: number; readonly kinds?: ReadonlyArray<string> }
  ) => Effect.Effect<number>
}>() {
  static readonly layer = Layer.scoped(Jobs, Effect.suspend(() => makeJobs))
}

const Claimed = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  payload: Schema.Unknown,
  attempts: Schema.Number,
  maxAttempts: Schema.Number
})
type Claimed = typeof Claimed.Type

const decodeClaimed = decodeRows(Claimed)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))

const DEFAULT_MAX_ATTEMPTS = 5
const DEFAULT_LEASE_SECONDS = 30
const POLL = Duration.seconds(1)

/** Retry delay after a failed attempt: 10 s, 20 s, 40 s … at most an hour. */
const backoffMillis = (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 3_600_000)

const makeJobs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ids = yield* Ids
  const options = yield* Options
  const handlers = new Map<string, { readonly run: JobHandler; readonly leaseSeconds: number }>()
  const wake = yield* Queue.sliding<void>(1)

  const enqueue = (job: JobSpec) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const id = yield* ids.next
      const rows = yield* sql`
        INSERT INTO jobs (id, kind, key, payload, run_at, max_attempts)
        VALUES (${id}, ${job.kind}, ${job.key ?? null}, ${JSON.stringify(job.payload ?? null)}::jsonb,
                ${new Date(job.runAt ?? now)}, ${job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS})
        ON CONFLICT (kind, key) WHERE status = 'queued' AND key IS NOT NULL DO NOTHING
        RETURNING id`.pipe(Effect.flatMap(decodeIds))
      // the runner claims what is committed: woken before the commit, it would find nothing and sleep a poll
      yield* afterCommit(wake.offer(undefined))
      return rows[0]?.id ?? null
    }).pipe(Effect.orDie)

  // Inside a transaction the runner is woken at its commit; the statement outside one is the caller's
  // to run later, so the wake may come before it (the runner then finds the job at its next poll).
  const enqueueWithin = (job: JobSpec, when: Fragment) =>
    Effect.map(
      Effect.all({ id: ids.next, now: Clock.currentTimeMillis, woken: afterCommit(wake.offer(undefined)) }),
      ({ id, now }) =>
        sql`INSERT INTO jobs (id, kind, key, payload, run_at, max_attempts)
        SELECT ${id}, ${job.kind}, ${job.key ?? null}, ${JSON.stringify(job.payload ?? null)}::jsonb,
          ${new Date(job.runAt ?? now)}, ${job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS} WHERE ${when}
        ON CONFLICT (kind, key) WHERE status = 'queued' AND key IS NOT NULL DO NOTHING`
    )

  /**
   * Up to `limit` due jobs of each kind (a flood of one kind does not hold the others back), each
   * leased for its handler's time, in one statement: the poll of an idle process is one round trip,
   * not one a kind.
   */
  const claim = (kinds: ReadonlyArray<string>, limit: number, now: number) => {
    const leases = JSON.stringify(kinds.map((kind) => ({ kind, seconds: handlers.get(kind)!.leaseSeconds })))
    const at = new Date(now)
    return sql`
      UPDATE jobs SET attempts = jobs.attempts + 1, locked_until = picked.lease_until
      FROM (
        SELECT due.id, ${at}::timestamptz + lease.seconds * interval '1 second' AS lease_until
        FROM jsonb_to_recordset(${leases}::jsonb) AS lease(kind text, seconds int)
        CROSS JOIN LATERAL (
          SELECT id FROM jobs
          WHERE status = 'queued' AND kind = lease.kind AND run_at <= ${at}
            AND (locked_until IS NULL OR locked_until < ${at})
          ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ) AS due
      ) AS picked
      WHERE jobs.id = picked.id
      RETURNING jobs.id, jobs.kind, jobs.payload, jobs.attempts, jobs.max_attempts`.pipe(Effect.flatMap(decodeClaimed))
  }

  const finish = (job: Claimed) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      yield* sql`UPDATE jobs SET status = 'done', finished_at = ${now}, locked_until = NULL
        WHERE id = ${job.id} AND attempts = ${job.attempts}`
    })

  const fail = (job: Claimed, error: unknown) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const message = String(error instanceof Error ? error.message : error).slice(0, 2000)
      if (job.attempts >= job.maxAttempts) {
        yield* sql`UPDATE jobs SET status = 'failed', finished_at = ${new Date(now)}, locked_until = NULL,
          last_error = ${message} WHERE id = ${job.id} AND attempts = ${job.attempts}`
      } else {
        yield* sql`UPDATE jobs SET run_at = ${new Date(now + backoffMillis(job.attempts))}, locked_until = NULL,
          last_error = ${message} WHERE id = ${job.id} AND attempts = ${job.attempts}`
      }
    })

  const runOne = (job: Claimed) =>
    handlers.get(job.kind)!.run(job.payload, { id: job.id, attempt: job.attempts, maxAttempts: job.maxAttempts })
      .pipe(
        Effect.withSpan("Jobs.run", { attributes: { kind: job.kind } }),
        Effect.matchCauseEffect({
          onSuccess: () => finish(job),
          onFailure: (cause) => fail(job, cause)
        })
      )

  const runDue = (request?: { readonly limit?: number; readonly kinds?: ReadonlyArray<string> }) =>
    Effect.gen(function*() {
      const kinds = (request?.kinds ?? [...handlers.keys()]).filter((kind) => handlers.has(kind))
      if (kinds.length === 0) return 0
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* claim(kinds, request?.limit ?? 10, now)
      yield* Effect.forEach(claimed, runOne, { discard: true })
      return claimed.length
    }).pipe(Effect.orDie)

  if (options.runJobs !== false) {
    const round = runDue().pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("Job round failed", cause).pipe(Effect.as(0)))
    )
    // Keep going while rounds find work; otherwise wait for an enqueue or the next poll.
    const loop = round.pipe(
      Effect.flatMap((ran) => ran > 0 ? Effect.void : Effect.race(wake.take, Effect.sleep(POLL))),
      Effect.repeat(Schedule.forever)
    )
    yield* Effect.forkScoped(loop)
  }

  return Jobs.of({
    enqueue,
    enqueueWithin,
    handle: (kind, run, handlerOptions) =>
      Effect.sync(() => {
        handlers.set(kind, { run, leaseSeconds: handlerOptions?.leaseSeconds ?? DEFAULT_LEASE_SECONDS })
      }),
    runDue
  })
})
