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
  /** Its embedded data folder (`stop` removes it unless `env` named it); undefined on PostgreSQL. */
  readonly dataDir: string | undefined
  /** What it wrote to stdout and stderr so far. */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

export interface BuiltServerOptions {
  /** The binary to run (default the workspace's built `roda-server`), e.g. one installed from tarballs. */
  readonly bin?: string
  readonly args?: ReadonlyArray<string>
  readonly cwd?: string
  /** On a new embedded data folder even in the PostgreSQL run (default: the run's database). */
  readonly embedded?: boolean
}

const definedOnly = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined))

/**
 * Starts a built `roda-server` on a free port, on the run's database (a new data folder, or the test
 * file's PostgreSQL database), with `env` added (a variable given as undefined is left unset); resolves
 * once `/readyz` answers 200.
 */
export const startBuiltServer = async (
  env: Record<string, string | undefined> = {},
  options: BuiltServerOptions = {}
): Promise<BuiltServer> => {
  const port = await freePort()
  const postgres = options.embedded === true ? undefined : process.env.DATABASE_URL
  const made = postgres === undefined && env.DATA_DIR === undefined
    ? mkdtempSync(join(tmpdir(), "roda-built-"))
    : undefined
  const dataDir = postgres === undefined ? env.DATA_DIR ?? made : undefined
  const child = spawn(options.bin ?? SERVER_BIN, options.args ?? [], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: definedOnly({
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: "a-secret-of-at-least-thirty-two-characters",
      PAYMENT_GATEWAY: "sandbox",
      SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ==",
      LOG_LEVEL: "warn",
      ...(postgres === undefined ? { DATA_DIR: dataDir! } : { DATABASE_URL: postgres }),
      ...env
    }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
    if (made !== undefined) rmSync(made, { recursive: true, force: true })
  }
  const base = `http://127.0.0.1:${port}`
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`roda-server exited with ${child.exitCode}: ${output}`)
    }
    if (await fetch(`${base}/readyz`).then((reply) => reply.status === 200, () => false)) {
      return { base, process: child, dataDir, output: () => output, stop }
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

/**
 * A `Roda`-shaped stand-in for a running server, for the suites' clients (core's test harness calls
 * `roda.handler(request)`): each request goes over HTTP to `base`, redirects not followed.
 */
export const overHttp = (base: string) => ({
  handler: async (request: Request) => {
    const url = new URL(request.url)
    return fetch(`${base}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer(),
      redirect: "manual"
    })
  }
})
