#!/usr/bin/env -S node --max-semi-space-size=64 --no-allocation-site-pretenuring --expose-gc
// The young generation may grow to 64 MB (V8's default stops at 16): a request's garbage then dies
// young instead of being copied out, which halved the time spent in GC under load (20% -> 10% of CPU)
// and cut p99. Allocation-site pretenuring is off: V8 took the objects of requests waiting on the
// database for long-lived ones and allocated them in the old generation (the course detail's 3.8 MB
// a thousand requests under load, 0.09 MB without it, and a mark-compact every few seconds). V8
// reads these flags only at start-up, hence the shebang (and `pnpm start`). `gc` is exposed for the
// collections that give those pages back once a burst of requests is over (idleCollection.ts).
import { prestartEmbedded } from "@roda/core/node/prestart"

// The embedded database (a new folder unpacked, PGlite started in its worker thread) opens while
// the rest of the server loads: the import below is most of a start's time.
prestartEmbedded()
await import("./run")
