import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Jobs } from "../../src/platform/Jobs"
import { startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { query } from "../support/sql"

// Two processes on one database when PostgreSQL runs; one (several fibers) on the embedded one.
const shared = process.env.DATABASE_URL !== undefined
// Traced, so that `statements` counts what a round sends.
const first = startRoda({ runJobs: false }, { tracing: true })
const second = shared ? startRoda({ runJobs: false }) : first
const runners = [first, second]

const withJobs = <A>(roda: typeof first, f: (jobs: Jobs["Type"]) => Effect.Effect<A>) =>
  roda.runtime.runPromise(Effect.flatMap(Jobs, f))

beforeAll(async () => {
  await first.ready()
  await second.ready()
})
afterAll(async () => {
  await first.dispose()
  if (shared) await second.dispose()
})

const kindOf = (name: string) => `test.${name}.${crypto.randomUUID()}`

describe("Jobs (durable queue)", () => {
  it("runs each job exactly once when workers race for the same rows", async () => {
    const kind = kindOf("race")
    const runs = new Map<string, number>()
    for (const roda of runners) {
      await withJobs(roda, (jobs) =>
        jobs.handle(kind, (payload) =>
          Effect.sync(() => {
            const n = (payload as { n: number }).n
            runs.set(String(n), (runs.get(String(n)) ?? 0) + 1)
          }).pipe(Effect.zipRight(Effect.sleep("2 millis")))))
    }
    for (let n = 0; n < 60; n++) await withJobs(first, (jobs) => jobs.enqueue({ kind, payload: { n } }))
    const drain = (roda: typeof first) =>
      withJobs(
        roda,
        (jobs) => Effect.iterate(1, { while: (ran) => ran > 0, body: () => jobs.runDue({ limit: 7, kinds: [kind] }) })
      )
    await Promise.all([drain(first), drain(second), drain(first), drain(second)])
    expect(runs.size).toBe(60)
    expect([...runs.values()].every((count) => count === 1)).toBe(true)
    const rows = await query<{ status: string; attempts: number }>(
      first,
      (sql) => sql`SELECT status, attempts FROM jobs WHERE kind = ${kind}`
    )
    expect(rows).toHaveLength(60)
    expect(rows.every((row) => row.status === "done" && row.attempts === 1)).toBe(true)
  })

  it("does not enqueue a second open job with the same key, and accepts it again once the first is done", async () => {
    const kind = kindOf("key")
    await withJobs(first, (jobs) => jobs.handle(kind, () => Effect.void))
    const a = await withJobs(first, (jobs) => jobs.enqueue({ kind, key: "renewal:1", payload: {} }))
    const b = await withJobs(first, (jobs) => jobs.enqueue({ kind, key: "renewal:1", payload: {} }))
    expect(a).toEqual(expect.any(String))
    expect(b).toBeNull()
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(1)
    const c = await withJobs(first, (jobs) => jobs.enqueue({ kind, key: "renewal:1", payload: {} }))
    expect(c).toEqual(expect.any(String))
    expect(c).not.toBe(a)
  })

  it("retries a failing job later, then gives it up as failed with its last error", async () => {
    const kind = kindOf("fail")
    let attempts = 0
    await withJobs(first, (jobs) =>
      jobs.handle(kind, (_payload, run) =>
        Effect.sync(() => {
          attempts = run.attempt
        }).pipe(Effect.zipRight(Effect.fail(new Error(`boom ${run.attempt}`))))))
    const id = await withJobs(first, (jobs) => jobs.enqueue({ kind, payload: {}, maxAttempts: 2 }))
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(1)
    // Not due again until its back-off has passed.
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(0)
    const [queued] = await query<{ status: string; lastError: string }>(
      first,
      (sql) => sql`SELECT status, last_error FROM jobs WHERE id = ${id}`
    )
    expect(queued).toMatchObject({ status: "queued", lastError: expect.stringContaining("boom 1") })
    await query(first, (sql) => sql`UPDATE jobs SET run_at = now() - interval '1 second' WHERE id = ${id}`)
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(1)
    expect(attempts).toBe(2)
    const [failed] = await query<{ status: string; lastError: string }>(
      first,
      (sql) => sql`SELECT status, last_error FROM jobs WHERE id = ${id}`
    )
    expect(failed).toMatchObject({ status: "failed", lastError: expect.stringContaining("boom 2") })
  })

  it("takes over a job whose worker died once its lease has expired", async () => {
    const kind = kindOf("lease")
    let ran = 0
    await withJobs(first, (jobs) => jobs.handle(kind, () => Effect.sync(() => void ran++)))
    const id = await withJobs(first, (jobs) => jobs.enqueue({ kind, payload: {} }))
    // A worker claimed it and died: the lease is held, nothing finishes it.
    await query(
      first,
      (sql) => sql`UPDATE jobs SET attempts = 1, locked_until = now() + interval '1 hour' WHERE id = ${id}`
    )
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(0)
    await query(first, (sql) => sql`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = ${id}`)
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(1)
    expect(ran).toBe(1)
  })

  it("leaves jobs of kinds this process has no handler for to others", async () => {
    const kind = kindOf("foreign")
    await withJobs(first, (jobs) => jobs.enqueue({ kind, payload: {} }))
    expect(await withJobs(first, (jobs) => jobs.runDue({ kinds: [kind] }))).toBe(0)
    const [row] = await query<{ status: string; attempts: number }>(
      first,
      (sql) => sql`SELECT status, attempts FROM jobs WHERE kind = ${kind}`
    )
    expect(row).toEqual({ status: "queued", attempts: 0 })
  })

  it("claims up to `limit` due jobs of each kind in one statement, each leased for its handler's time", async () => {
    const [short, long, idle] = [kindOf("short"), kindOf("long"), kindOf("idle")]
    const leases = new Map<string, Array<number>>()
    const recordLease = (kind: string) => (_payload: unknown, run: { readonly id: string }) =>
      Effect.gen(function*() {
        const [row] = yield* Effect.promise(() =>
          query<{ seconds: number }>(
            first,
            (sql) =>
              sql`SELECT extract(epoch FROM locked_until - now())::float8 AS seconds FROM jobs WHERE id = ${run.id}`
          )
        )
        leases.set(kind, [...(leases.get(kind) ?? []), row!.seconds])
      })
    await withJobs(first, (jobs) => jobs.handle(short, recordLease(short), { leaseSeconds: 30 }))
    await withJobs(first, (jobs) => jobs.handle(long, recordLease(long), { leaseSeconds: 600 }))
    await withJobs(first, (jobs) => jobs.handle(idle, () => Effect.void))
    const kinds = [short, long, idle]
    // A round over three kinds with nothing due is one statement (it was one a kind).
    const empty = await statements(() =>
      withJobs(first, (jobs) => jobs.runDue({ kinds }).pipe(Effect.withSpan("http.server jobs")))
    )
    expect(empty).toMatchObject({ n: 1, result: 0 })
    for (const kind of [short, long]) {
      for (let n = 0; n < 3; n++) await withJobs(first, (jobs) => jobs.enqueue({ kind, payload: { n } }))
    }
    const round = await statements(() =>
      withJobs(first, (jobs) => jobs.runDue({ limit: 2, kinds }).pipe(Effect.withSpan("http.server jobs")))
    )
    // Two of each kind with due jobs: one claim, then each job's finish.
    expect(round.result).toBe(4)
    expect(round.n).toBe(1 + 4)
    expect(leases.get(short)).toHaveLength(2)
    expect(leases.get(long)).toHaveLength(2)
    for (const [kind, lease] of [[short, 30], [long, 600]] as const) {
      for (const seconds of leases.get(kind)!) {
        expect(seconds).toBeGreaterThan(lease - 5)
        expect(seconds).toBeLessThanOrEqual(lease)
      }
    }
    // The third of each is claimed by the next round.
    expect(await withJobs(first, (jobs) => jobs.runDue({ limit: 2, kinds }))).toBe(2)
    expect(await withJobs(first, (jobs) => jobs.runDue({ limit: 2, kinds }))).toBe(0)
  })
})
