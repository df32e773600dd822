/**
 * The worker thread that runs a PGlite database for `PgliteClient` with `thread: "worker"`. It
 * opens the database its `workerData` names, answers each request with the same engine a PGlite on
 * the main thread has (one at a time, in the order they came), and stops after `close`.
 */
import { parentPort, workerData } from "node:worker_threads"
import { createDatabase } from "./internal/create"
import { type Engine, inThread } from "./internal/engine"
import { type Request, sendError, type WorkerInit } from "./internal/workerProtocol"

const port = parentPort!
const init = workerData as WorkerInit

const opened = createDatabase(init.dataDir, { contrib: init.contrib, loadDataDir: init.loadDataDir }, init.runtime)
  .then(inThread)

opened.then(
  () => port.postMessage({ id: 0, value: null }),
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
port.on("message", (request: Request) => {
  opened.then((engine) => answer(engine, request)).then(
    (value) => port.postMessage({ id: request.id, value })
  ).catch((error) => port.postMessage({ id: request.id, error: sendError(error) })).finally(() => {
    if (request.op === "close") port.close()
  })
})
