#!/usr/bin/env -S node --max-semi-space-size=64 --no-allocation-site-pretenuring --expose-gc
// The young generation may grow to 64 MB (V8's default stops at 16): a request's garbage then dies
// young instead of being copied out, which halved the time spent in GC under load (20% -> 10% of CPU)
// and cut p99. No allocation-site pretenuring: V8 otherwise watches which of its allocation sites made
// objects that survived a young collection, and allocates whatever those sites make later straight in
// the old generation. Start-up (layers, schemas, the OpenAPI document) goes through the same sites
// as a request (Effect's fibers, contexts and maps), so they were judged long-lived, and each request's
// fiber and context were then written to the old generation and left for full collections: the static
// route through the app promoted 0.28 KB a request instead of 0.04 and spent 10-15% more CPU, as
// startup changed between commits (bench/README.md, 2026-12-07). V8 reads these flags only at
// start-up, hence the shebang (and `pnpm start`). `gc` is exposed for the collections that give the
// young generation's pages back once a burst of requests is over (idleCollection.ts).
import { prestartEmbedded } from "@roda/core/node/prestart"
import cluster from "node:cluster"
import { workerCount } from "./workers"

// `WORKERS` processes on PostgreSQL: this one is their primary (workers.ts); a worker, or a single
// process, is the server itself. A WORKERS the primary cannot use is reported by the server's checks.
const workers = cluster.isPrimary ? workerCount(process.env) : 1
if (workers > 1 && Number.isInteger(workers) && process.env.DATABASE_URL !== undefined) {
  await import("./primary")
} else {
  // The embedded database (a new folder unpacked, PGlite started in its worker thread) opens while
  // the rest of the server loads: the import below is most of a start's time.
  prestartEmbedded()
  await import("./run")
}
