import cluster, { type Worker } from "node:cluster"
import { availableParallelism } from "node:os"

/**
 * `WORKERS` processes serving one port (node:cluster: the primary accepts the connections and hands
 * them to the workers in turn). The primary opens no database and serves nothing: it checks the
 * environment once (so a bad setting is reported once), forks the workers, starts a worker again
 * when one dies, and stops them all on SIGTERM or SIGINT. Each worker is today's single server with
 * `WORKERS=1` and its share of `PGPOOL_MAX` as its pool; durable jobs are shared through the database
 * (claims with `FOR UPDATE SKIP LOCKED`), as between machines.
 */

/** The number of workers: `WORKERS`, else the cores with PostgreSQL and 1 on the embedded database. */
export const workerCount = (env: NodeJS.ProcessEnv) => {
  const given = env.WORKERS?.trim()
  if (given !== undefined && given !== "") return Number(given)
  return env.DATABASE_URL === undefined ? 1 : availableParallelism()
}

/** The pool of each of `workers`: an equal share of `PGPOOL_MAX` (10 unless set), together within it. */
export const poolShare = (env: NodeJS.ProcessEnv, workers: number) =>
  Math.max(1, Math.floor(Number(env.PGPOOL_MAX?.trim() || "10") / workers))

/** A worker that dies this soon after it started counts as a failed start. */
const EARLY_DEATH_MS = 5_000
/** Failed starts in a row after which the primary gives up (the environment is wrong, not a worker). */
const MAX_EARLY_DEATHS = 3

/** Runs the primary until its workers have stopped; resolves the exit code. */
export const runPrimary = (workers: number): Promise<number> =>
  new Promise((resolveExit) => {
    const env = { WORKERS: "1", PGPOOL_MAX: String(poolShare(process.env, workers)), RODA_WORKER: "1" }
    const startedAt = new Map<number, number>()
    let stopping = false
    let earlyDeaths = 0
    let exitCode = 0

    const fork = () => {
      const worker = cluster.fork(env)
      startedAt.set(worker.id, performance.now())
      return worker
    }
    const alive = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined)
    const stopAll = (code: number) => {
      if (stopping) return
      stopping = true
      exitCode = code
      for (const worker of alive()) worker.process.kill("SIGTERM")
      if (alive().length === 0) resolveExit(exitCode)
    }

    cluster.on("exit", (worker, code, signal) => {
      const lived = performance.now() - (startedAt.get(worker.id) ?? 0)
      startedAt.delete(worker.id)
      if (stopping) {
        if (alive().length === 0) resolveExit(exitCode)
        return
      }
      earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0
      process.stderr.write(
        `Roda worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}) after ${Math.round(lived)} ms\n`
      )
      if (earlyDeaths >= MAX_EARLY_DEATHS) {
        process.stderr.write(`Roda stops: ${earlyDeaths} workers in a row died while starting\n`)
        stopAll(1)
        return
      }
      fork()
    })
    process.once("SIGTERM", () => stopAll(0))
    process.once("SIGINT", () => stopAll(0))
    for (let i = 0; i < workers; i++) fork()
    process.stdout.write(`Roda primary ${process.pid}: ${workers} workers, ${env.PGPOOL_MAX} connections each\n`)
  })
