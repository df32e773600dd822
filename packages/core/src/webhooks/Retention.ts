import { Clock, Effect, Layer, Schema } from "effect"
import { Jobs } from "../platform/Jobs"
import { Options } from "../platform/Options"
import { WebhooksRepo } from "./Repo"
import { EVENT_LOG_DAYS } from "./Webhooks"

export const RETENTION_JOB = "webhooks.retention"
/** Events deleted by one statement; a run goes on while its batches come back full, for up to `RUN_MS`. */
export const RETENTION_BATCH = 1_000
const RUN_MS = 20_000
const EVERY_MS = 3600_000

/** The hour (since the epoch) a run belongs to; it queues the next hour's. */
const decodeRun = Schema.decodeUnknown(Schema.Struct({ hour: Schema.Int }))

/**
 * Events older than the event log's 30 days are deleted, with their deliveries, by a durable job
 * that queues its next run an hour later. Its key is the hour it belongs to: every process that runs
 * jobs queues a run for the current hour when it starts, and each run queues the next hour's, so runs
 * of one hour are one queued job, and several processes make one chain, not several.
 */
export const EventRetention = Layer.scopedDiscard(Effect.gen(function*() {
  const jobs = yield* Jobs
  const repo = yield* WebhooksRepo
  const options = yield* Options
  const queue = (hour: number, runAt: number) =>
    jobs.enqueue({ kind: RETENTION_JOB, key: `${hour}`, payload: { hour }, runAt })

  const run = (payload: unknown) =>
    Effect.gen(function*() {
      const { hour } = yield* decodeRun(payload)
      const started = yield* Clock.currentTimeMillis
      const before = new Date(started - EVENT_LOG_DAYS * 24 * 3600_000)
      for (;;) {
        const deleted = yield* repo.deleteEventsBefore(before, RETENTION_BATCH)
        if (deleted < RETENTION_BATCH || (yield* Clock.currentTimeMillis) - started > RUN_MS) break
      }
      yield* queue(hour + 1, started + EVERY_MS)
    })

  yield* jobs.handle(RETENTION_JOB, run, { leaseSeconds: 2 * RUN_MS / 1000 })
  if (options.runJobs !== false) {
    const now = yield* Clock.currentTimeMillis
    yield* queue(Math.floor(now / EVERY_MS), now)
  }
}))
