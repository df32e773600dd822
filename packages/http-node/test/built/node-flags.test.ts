import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { SERVER_BIN } from "../../../../testing/builtServer"
import { runToEnd } from "../../../../testing/runToEnd"

/**
 * The binaries set V8's flags in their shebang (`#!/usr/bin/env -S node …`, see src/main.ts): only the
 * build writes that line, and only running the file as a program reads it. Each binary is run as a
 * program with a preload (`NODE_OPTIONS=--require`) that reports the flags Node started with and exits
 * before the binary's own code runs.
 */
const CLI_BIN = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), "roda-node-flags-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const probe = join(scratch, "probe.cjs")
writeFileSync(
  probe,
  "process.stdout.write(JSON.stringify({ execArgv: process.execArgv, gc: typeof globalThis.gc }));process.exit(0)\n"
)

const startedWith = async (bin: string) => {
  const run = await runToEnd(bin, [], { PATH: process.env.PATH ?? "", NODE_OPTIONS: `--require ${probe}` }, 30_000)
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as { execArgv: ReadonlyArray<string>; gc: string }
}

describe("the binaries' Node flags", () => {
  for (const [name, bin] of [["roda-server", SERVER_BIN], ["roda (the CLI)", CLI_BIN]] as const) {
    it(`${name} runs with a 64 MB young generation, no allocation-site pretenuring and gc exposed`, async () => {
      const started = await startedWith(bin)
      expect(started.execArgv).toEqual(
        expect.arrayContaining(["--max-semi-space-size=64", "--no-allocation-site-pretenuring", "--expose-gc"])
      )
      expect(started.gc).toBe("function")
    })
  }
})
