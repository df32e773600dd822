import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./ports"
import { runToEnd } from "./runToEnd"

/** The built server binary, as `roda-server` runs it (its shebang's Node flags included). */
export const SERVER_BIN = fileURLToPath(new URL("../packages/http-node/dist/main.js", import.meta.url))

export interface BuiltServer {
  readonly base: string
  readonly process: ChildProcess
  /** What it wrote to stdout and stderr so far. */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

export interface BuiltServerOptions {
  /** The run's database (a new data folder, or the test file's PostgreSQL), or an embedded one in `env.DATA_DIR`. */
  readonly database?: "run" | "embedded"
}

/**
 * Starts the built `roda-server` on a free port, on the run's database (a new data folder, or the test
 * file's PostgreSQL database), with `env` added; resolves once `/readyz` answers 200.
 */
export const startBuiltServer = async (
  env: Record<string, string> = {},
  options: BuiltServerOptions = {}
): Promise<BuiltServer> => {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "roda-built-"))
  const postgres = options.database === "embedded" ? undefined : process.env.DATABASE_URL
  const child = spawn(SERVER_BIN, [], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: "a-secret-of-at-least-thirty-two-characters",
      PAYMENT_GATEWAY: "sandbox",
      SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ==",
      LOG_LEVEL: "warn",
      ...(postgres === undefined ? { DATA_DIR: dataDir } : { DATABASE_URL: postgres }),
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  }
  const base = `http://127.0.0.1:${port}`
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`roda-server exited with ${child.exitCode}: ${output}`)
    }
    if (await fetch(`${base}/readyz`).then((reply) => reply.status === 200, () => false)) {
      return { base, process: child, output: () => output, stop }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`roda-server did not answer /readyz within 60 s: ${output}`)
}

/**
 * Runs the built `roda-server` with exactly `env` (and PATH) until it exits (killed after
 * `timeoutMs`): for starts that must fail.
 */
export const runBuiltServer = (env: Record<string, string>, timeoutMs = 60_000) =>
  runToEnd(SERVER_BIN, [], { PATH: process.env.PATH ?? "", ...env }, timeoutMs)
