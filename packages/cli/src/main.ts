#!/usr/bin/env -S node --max-semi-space-size=64 --no-allocation-site-pretenuring --expose-gc
// `roda serve` runs the HTTP server: the same Node flags as roda-server (see http-node's main.ts).
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
