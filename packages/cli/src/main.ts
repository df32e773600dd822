#!/usr/bin/env -S node --max-semi-space-size=64 --expose-gc
// The young generation may grow to 64 MB (V8's default stops at 16): a request's garbage then dies
// young instead of being copied out, which halved the time spent in GC under load (20% -> 10% of CPU)
// and cut p99. V8 reads the flag only at start-up, hence the shebang (and `pnpm start`). `gc` is
// exposed for one collection once a burst of requests is over (idleCollection.ts), which gives those
// pages back.
import { NodeRuntime } from "@effect/platform-node"
import { Exit } from "effect"
import { run } from "./run"

NodeRuntime.runMain(run(process.argv), {
  disableErrorReporting: true,
  disablePrettyLogger: true,
  teardown: (exit, onExit) => {
    const code = Exit.isSuccess(exit) ? Number(exit.value) : Exit.isInterrupted(exit) ? 0 : 1
    process.exitCode = code
    onExit(code)
    // Stdout drains before the process ends; a handle left open (a pool, a timer) must not keep it alive.
    setTimeout(() => process.exit(code), 5_000).unref()
  }
})
