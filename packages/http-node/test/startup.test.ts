import { PGlite } from "@electric-sql/pglite"
import { defaultOptions, secret } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { serve } from "../src/server"

const root = fileURLToPath(new URL("../../..", import.meta.url))

/** Runs the server's entry point (sources, through tsx) with `env`; resolves with its exit code and output. */
const runMain = (env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "packages/http-node/src/main.ts"], {
      cwd: root,
      env: { ...process.env, LOG_FORMAT: "pretty", ...env }
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => stdout += chunk)
    child.stderr.on("data", (chunk) => stderr += chunk)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("start-up messages", () => {
  it("say where the embedded database is (absolute path) and how many migrations are applied", async () => {
    const dir = mkdtempSync(join(tmpdir(), "roda-start-"))
    // A folder holding a database without Roda's tables: a new folder would start from the migrated
    // template, with nothing to apply.
    await (await PGlite.create(join(dir, "pg"))).close()
    const logged: Array<string> = []
    const scope = Effect.runSync(Scope.make())
    try {
      await Effect.runPromise(
        serve({
          port: 0,
          host: "127.0.0.1",
          database: { _tag: "Embedded", dataDir: join(dir, "pg") },
          options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123") }),
          log: { format: "json", level: "info" }
        }, { logSink: (chunk) => logged.push(chunk) }).pipe(Scope.extend(scope))
      )
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dir, { recursive: true, force: true })
    }
    const messages = logged.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line).msg as string)
    expect(messages.slice(0, 2)).toEqual([
      `opening embedded database at ${join(dir, "pg")}`,
      expect.stringMatching(/^applying \d+ migrations$/)
    ])
    expect(messages[2]).toMatch(/^Roda listening on http:\/\/127\.0\.0\.1:\d+/)
  })

  it("a DATABASE_URL that cannot be used: a line naming it, the cause and the target without its password, exit 1", async () => {
    const { code, stderr, stdout } = await runMain({
      DATABASE_URL: "postgres://ana:hunter2@127.0.0.1:1/roda",
      JWT_SECRET: "a-test-secret-that-is-long-enough-123",
      PAYMENT_GATEWAY: "sandbox",
      SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="
    })
    expect(code).toBe(1)
    // Checked before anything starts: the line names the target itself.
    expect(stderr.trim().split("\n")).toEqual([
      "Roda could not start:",
      "DATABASE_URL: cannot connect to PostgreSQL at postgres://ana@127.0.0.1:1/roda: connection refused (is PostgreSQL running and listening there?) — check its host, port, database, user and password, and that this machine may connect"
    ])
    expect(stdout + stderr).not.toContain("hunter2")
  })
})
