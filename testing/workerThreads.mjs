// Preloaded (NODE_OPTIONS=--import) into a spawned binary: each worker thread it starts says so on
// stderr, with its data folder when it is the embedded database's (`workerData.dataDir`).
import process from "node:process"
import { isMainThread, workerData } from "node:worker_threads"

if (!isMainThread) process.stderr.write(`worker thread started: dataDir=${workerData?.dataDir}\n`)
