#!/usr/bin/env -S node --max-semi-space-size=64 --expose-gc
// The young generation may grow to 64 MB (V8's default stops at 16): a request's garbage then dies
// young instead of being copied out, which halved the time spent in GC under load (20% -> 10% of CPU)
// and cut p99. V8 reads the flag only at start-up, hence the shebang (and `pnpm start`). `gc` is
// exposed for the collections that give those pages back once a burst of requests is over
// (idleCollection.ts).
import { prestartEmbedded } from "@roda/core/node/prestart"

// The embedded database (a new folder unpacked, PGlite started in its worker thread) opens while
// the rest of the server loads: the import below is most of a start's time.
prestartEmbedded()
await import("./run")
