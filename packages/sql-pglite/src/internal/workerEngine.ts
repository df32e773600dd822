import type { Results } from "@electric-sql/pglite"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import type { Engine } from "./engine"
import { sharedRuntime } from "./runtime"
import { receiveError, type Reply, type Request, type RuntimeMessage, type WorkerInit } from "./workerProtocol"

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

/**
 * PGlite in a worker thread: its WebAssembly PostgreSQL and the parsing of its answers run beside
 * the caller's thread instead of on it. Requests and answers cross as messages (rows structured-
 * cloned); the worker keeps the process alive only while a request is waiting for its answer.
 */
export const inWorker = async (
  dataDir: string | undefined,
  options: Omit<WorkerInit, "dataDir">
): Promise<Engine> => {
  const worker = spawn({ dataDir, ...options })
  const waiting = new Map<number, Waiting>()
  let stopped: Error | undefined
  let nextId = 1

  const settle = (id: number, answer: (entry: Waiting) => void) => {
    const entry = waiting.get(id)
    if (entry === undefined) return
    waiting.delete(id)
    if (waiting.size === 0) worker.unref()
    answer(entry)
  }
  const stop = (error: Error) => {
    stopped ??= error
    for (const id of [...waiting.keys()]) settle(id, (entry) => entry.reject(error))
  }
  worker.on(
    "message",
    (reply: Reply) =>
      settle(
        reply.id,
        (entry) => reply.error === undefined ? entry.resolve(reply.value) : entry.reject(receiveError(reply.error))
      )
  )
  worker.on("error", stop)
  worker.on("exit", (code) => stop(new Error(`PGlite's worker thread has stopped (exit code ${code})`)))

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

  let unpacked: boolean
  try {
    const ready = expect(0)
    ready.catch(() => undefined) // observed below, unless the runtime fails first
    const runtime: RuntimeMessage = { op: "runtime", runtime: await sharedRuntime() }
    worker.postMessage(runtime)
    unpacked = (await ready as { readonly unpacked: boolean }).unpacked
  } catch (error) {
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
      stop(new Error("PGlite is closed"))
      await worker.terminate()
    },
    unpacked
  }
}
