/**
 * The worker thread that runs a PGlite database for `PgliteClient` with `thread: "worker"`. It
 * opens the database its `workerData` names (unpacking a new folder first while PGlite's WebAssembly
 * compiles, here or on the thread that started it), answers each request with the same engine a
 * PGlite on the main thread has (one at a time, in the order they came), and stops after `close`.
 */
import { parentPort, workerData } from "node:worker_threads"
import { createDatabase, unpackFirst } from "./internal/create"
import { type Engine, inThread } from "./internal/engine"
import { type Runtime, sharedRuntime } from "./internal/runtime"
import { type Opened, type Request, type RuntimeMessage, sendError, type WorkerInit } from "./internal/workerProtocol"

const port = parentPort!
const init = workerData as WorkerInit
let receiveRuntime: (runtime: Runtime) => void = () => undefined
// Compiled here (started before the unpack, it runs on V8's threads meanwhile) or received.
const runtime = init.compile ? sharedRuntime() : new Promise<Runtime>((resolve) => receiveRuntime = resolve)

const open = async (): Promise<Engine> => {
  const options = { contrib: init.contrib, loadDataDir: init.loadDataDir, unpackFrom: init.unpackFrom }
  const unpacked = await unpackFirst(init.dataDir, options)
  return inThread(await createDatabase(init.dataDir, options, await runtime), unpacked)
}
const opened = open()

opened.then(
  async (engine) => {
    const value: Opened = { unpacked: engine.unpacked, runtime: init.compile ? await runtime : undefined }
    port.postMessage({ id: 0, value })
  },
  (error) => port.postMessage({ id: 0, error: sendError(error) })
)

const answer = (engine: Engine, request: Request): Promise<unknown> => {
  switch (request.op) {
    case "query":
      return engine.query(request.sql, request.params, { rowMode: request.rowMode })
    case "exec":
      return engine.exec(request.sql)
    case "dump":
      return engine.dumpDataDir()
    case "close":
      return engine.close()
  }
}

// The engine is called in the order the requests came (it queues them); answered as each settles.
port.on("message", (message: Request | RuntimeMessage) => {
  if (message.op === "runtime") return receiveRuntime(message.runtime)
  const request = message
  opened.then((engine) => answer(engine, request)).then(
    (value) => port.postMessage({ id: request.id, value })
  ).catch((error) => port.postMessage({ id: request.id, error: sendError(error) })).finally(() => {
    if (request.op === "close") port.close()
  })
})
