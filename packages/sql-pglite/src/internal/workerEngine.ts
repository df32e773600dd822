import type { Results } from "@electric-sql/pglite"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import type { Death, Engine } from "./engine"
import { adoptRuntime, startedRuntime } from "./runtime"
import {
  type Opened,
  receiveError,
  type Reply,
  type Request,
  type RuntimeMessage,
  type WorkerInit
} from "./workerProtocol"

/**
 * A parameter as PGlite would serialize it on this thread. A message drops prototypes, and with them
 * a `toJSON` (a class instance given as json would be written field by field): an object other than
 * a date or bytes crosses as the JSON it stands for. Arrays are kept (they may be PostgreSQL arrays).
 */
const crossing = (value: unknown): unknown =>
  typeof value !== "object" || value === null || value instanceof Date || ArrayBuffer.isView(value)
    ? value
    : Array.isArray(value)
    ? value.map(crossing)
    : JSON.parse(JSON.stringify(value))

const hasObject = (params: ReadonlyArray<unknown>) =>
  params.some((value) => typeof value === "object" && value !== null)

type Call = Request extends infer R ? R extends { readonly id: number } ? Omit<R, "id"> : never : never

const fromSources = import.meta.url.endsWith(".ts")
const builtScript = () => new URL("./pglite-worker.js", import.meta.url)

/**
 * Whether the worker's script is there: built, it sits beside this module's bundle
 * (`pglite-worker.js`); a program that bundled this module without it has none.
 */
export const workerAvailable = () => fromSources || existsSync(builtScript())

/**
 * The worker, on its script; run from the TypeScript sources (the tests), it registers tsx first to
 * load `pglite-worker.ts`.
 */
const spawn = (workerData: WorkerInit): Worker => {
  if (!fromSources) return new Worker(builtScript(), { workerData })
  const script = new URL("../pglite-worker.ts", import.meta.url).href
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${
    JSON.stringify(script)
  }) })`
  return new Worker(code, { eval: true, workerData })
}

/** A request waiting for its answer. */
interface Waiting {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: Error) => void
}

/** A worker that dies more often than this (within `RESTART_WINDOW_MS`) is left down. */
const MAX_RESTARTS = 3
const RESTART_WINDOW_MS = 60_000

/**
 * What the calls waiting on a worker that died get: SQLSTATE 57P02 (crash_shutdown), a lost
 * connection, so a request may be retried (503), as when a PostgreSQL backend crashes.
 */
const crashed = (error: Error) =>
  Object.assign(new Error(`PGlite's worker thread stopped (${error.message}); it is restarting`), { code: "57P02" })

const spawnListeners = new Set<(worker: Worker) => void>()

/** For tests: `listener` is told of each worker as it is spawned (to stop one, say), until removed. */
export const onWorkerSpawned = (listener: (worker: Worker) => void): () => void => {
  spawnListeners.add(listener)
  return () => spawnListeners.delete(listener)
}

/**
 * PGlite in a worker thread: its WebAssembly PostgreSQL and the parsing of its answers run beside
 * the caller's thread instead of on it. Requests and answers cross as messages (rows structured-
 * cloned); the worker keeps the process alive only while a request is waiting for its answer.
 *
 * A worker that dies (WebAssembly aborted, out of memory) fails the calls waiting on it as a lost
 * connection and, for a database in a folder, is started again on that folder (PostgreSQL recovers
 * it as after a crash); `generation` counts the restarts, so that a transaction begun before one
 * fails instead of going on outside a transaction (see `PgliteClient`). One that keeps dying stays
 * down, and every call fails with why.
 */
export const inWorker = async (
  dataDir: string | undefined,
  options: Omit<WorkerInit, "dataDir" | "compile">
): Promise<Engine> => {
  const waiting = new Map<number, Waiting>()
  let stopped: Error | undefined
  let closing = false
  let generation = 0
  const restarts: Array<number> = []
  const deathListeners = new Set<(death: Death) => void>()
  let nextId = 1
  // This thread's runtime when it has one (or is compiling it); else the first worker compiles it, on
  // its own thread while it unpacks (this one is often busy loading the program) and hands it back.
  // Either way it is given to every restarted worker.
  const known = startedRuntime()
  let runtime: RuntimeMessage | undefined

  const settle = (id: number, answer: (entry: Waiting) => void) => {
    const entry = waiting.get(id)
    if (entry === undefined) return
    waiting.delete(id)
    if (waiting.size === 0) worker.unref()
    answer(entry)
  }
  const failWaiting = (error: Error) => {
    for (const id of [...waiting.keys()]) settle(id, (entry) => entry.reject(error))
  }
  const stop = (error: Error) => {
    stopped ??= error
    failWaiting(error)
  }

  /** A database in a folder can be opened again; one in memory would come back empty. */
  const restartable = dataDir !== undefined && !dataDir.startsWith("memory://")
  const mayRestart = () => {
    const now = Date.now()
    while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift()
    return runtime !== undefined && restartable && restarts.length < MAX_RESTARTS
  }

  const died = (dead: Worker, error: Error) => {
    if (dead !== worker) return // the second event ("error", then "exit") of a worker already replaced
    if (closing || stopped !== undefined) return stop(error) // an end, not a death
    const restart = mayRestart()
    for (const listener of deathListeners) listener({ error, restarted: restart })
    if (!restart) return stop(error)
    restarts.push(Date.now())
    generation++
    failWaiting(crashed(error))
    // The folder is there now: nothing to unpack or load. Calls made meanwhile wait in the new
    // worker until it has opened the database.
    worker = launch({
      dataDir,
      contrib: options.contrib,
      loadDataDir: undefined,
      unpackFrom: undefined,
      compile: false
    })
    worker.postMessage(runtime)
  }

  const launch = (init: WorkerInit): Worker => {
    const started = spawn(init)
    started.unref()
    started.on(
      "message",
      (reply: Reply) =>
        settle(
          reply.id,
          (entry) => reply.error === undefined ? entry.resolve(reply.value) : entry.reject(receiveError(reply.error))
        )
    )
    started.on("error", (error) => died(started, error))
    started.on("exit", (code) => died(started, new Error(`PGlite's worker thread has stopped (exit code ${code})`)))
    for (const listener of spawnListeners) listener(started)
    return started
  }

  const expect = (id: number) =>
    new Promise<unknown>((resolve, reject) => {
      if (stopped !== undefined) return reject(stopped)
      waiting.set(id, { resolve, reject })
      if (waiting.size === 1) worker.ref()
    })

  const call = <A>(request: Call): Promise<A> => {
    const id = nextId++
    const answer = expect(id)
    if (stopped === undefined) {
      try {
        worker.postMessage({ ...request, id })
      } catch (error) {
        // A parameter that cannot be cloned (a function, say): refused like a statement that fails.
        settle(id, (entry) => entry.reject(error instanceof Error ? error : new Error(String(error))))
      }
    }
    return answer as Promise<A>
  }

  let worker = launch({ dataDir, ...options, compile: known === undefined })
  let unpacked: boolean
  try {
    const ready = expect(0)
    ready.catch(() => undefined) // observed below, unless the runtime fails first
    if (known !== undefined) {
      runtime = { op: "runtime", runtime: await known }
      worker.postMessage(runtime)
    }
    const opened = await ready as Opened
    if (opened.runtime !== undefined) {
      adoptRuntime(opened.runtime)
      runtime = { op: "runtime", runtime: opened.runtime }
    }
    unpacked = opened.unpacked
  } catch (error) {
    closing = true
    await worker.terminate()
    throw error
  }
  return {
    query: (sql, params, options) =>
      call<Results<object>>({
        op: "query",
        sql,
        params: hasObject(params) ? params.map(crossing) : params,
        rowMode: options?.rowMode
      }),
    exec: (sql) => call<Array<Results<object>>>({ op: "exec", sql }),
    dumpDataDir: () => call<Blob>({ op: "dump" }),
    close: async () => {
      if (stopped === undefined) await call({ op: "close" }).catch(() => undefined)
      closing = true
      stop(new Error("PGlite is closed"))
      await worker.terminate()
    },
    generation: () => generation,
    onDeath: (listener) => void deathListeners.add(listener),
    unpacked
  }
}
