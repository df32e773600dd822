import { execFile, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it } from "vitest"
import { freePort } from "../../../testing/ports"
import { skipWhen } from "../../../testing/skips"

const run = promisify(execFile)
const packages = fileURLToPath(new URL("../../../packages/", import.meta.url))
const TEN_MINUTES = 600_000

/** The workspace packages `name` depends on (`workspace:*`), dependencies first, then itself. */
const closure = (name: string, seen: Array<string> = []): Array<string> => {
  const manifest = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8"))
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    const folder = dependency.startsWith("@roda/") ? dependency.slice("@roda/".length) : undefined
    if (folder !== undefined && !seen.includes(folder)) closure(folder, seen)
  }
  if (!seen.includes(name)) seen.push(name)
  return seen
}

const registryAnswers = () => run("npm", ["ping"], { timeout: 20_000 }).then(() => true, () => false)

// The server test runs on the run's database: a data folder in the embedded run, the test file's own
// PostgreSQL database (DATABASE_URL, testing/fileDatabase.ts) in the PostgreSQL run.
const postgres = process.env.DATABASE_URL
const offline = await registryAnswers() ? undefined : "the npm registry does not answer (npm ping)"

const project = mkdtempSync(join(tmpdir(), "roda-tarballs-"))
afterAll(() => rmSync(project, { recursive: true, force: true }))

const ESM = `
import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import { createServer } from "node:http"

const roda = makeRoda({
  database: { _tag: "Embedded", dataDir: "memory" },
  options: defaultOptions({ jwtSecret: secret("a-secret-of-at-least-thirty-two-characters") })
})
await roda.ready()
const server = createServer(toNodeHandler(roda)).listen(0, "127.0.0.1")
await new Promise((resolve) => server.once("listening", resolve))
const reply = await fetch(\`http://127.0.0.1:\${server.address().port}/api/auth/register\`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ fullName: "Tara Tarball", email: "tara@example.com", password: "Secret123" })
})
console.log(JSON.stringify({ status: reply.status, email: (await reply.json()).data.email }))
server.close()
await roda.dispose()
`

const CJS = `
const { makeRoda, defaultOptions, secret } = require("@roda/core/node")
const roda = makeRoda({
  database: { _tag: "Embedded", dataDir: "memory" },
  options: defaultOptions({ jwtSecret: secret("a-secret-of-at-least-thirty-two-characters") })
})
roda.handler(new Request("http://localhost/healthz")).then(async (reply) => {
  const openapi = await roda.handler(new Request("http://localhost/api/openapi.json"))
  console.log(JSON.stringify({ openapi: openapi.status }))
  await roda.dispose()
})
`

skipWhen(offline).describe("the packed packages, installed with npm outside the workspace", () => {
  beforeAll(async () => {
    const names = closure("http-node")
    // Built by `pnpm build` (or by testing/builtPackages.ts before the run)
    const tarballs: Record<string, string> = {}
    for (const name of names) {
      const { stdout } = await run("pnpm", ["pack", "--pack-destination", project], { cwd: join(packages, name) })
      const file = stdout.trim().split("\n").at(-1)!.trim()
      tarballs[`@roda/${name}`] = `file:${file}`
    }
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "stranger",
        private: true,
        type: "module",
        dependencies: { ...tarballs, effect: "^3.22.4" }
      })
    )
    writeFileSync(join(project, "index.mjs"), ESM)
    writeFileSync(join(project, "index.cjs"), CJS)
    await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: project,
      timeout: TEN_MINUTES,
      maxBuffer: 1 << 26
    })
  }, 2 * TEN_MINUTES)

  it("each tarball holds its build, README.md and LICENSE", () => {
    for (const name of closure("http-node")) {
      const installed = join(project, "node_modules", "@roda", name)
      for (const file of ["dist/index.js", "dist/index.d.ts", "README.md", "LICENSE"]) {
        expect(existsSync(join(installed, file)), `@roda/${name}/${file}`).toBe(true)
      }
    }
    for (const file of ["dist/node.js", "dist/node.d.ts"]) { // `@roda/core/node`, the Node platform
      expect(existsSync(join(project, "node_modules", "@roda", "core", file)), `@roda/core/${file}`).toBe(true)
    }
    const effect = JSON.parse(readFileSync(join(project, "node_modules", "effect", "package.json"), "utf8"))
    expect(effect.version).toMatch(/^3\./)
  })

  it("an ES module project starts Roda and answers a request through toNodeHandler", async () => {
    const { stdout } = await run(process.execPath, ["index.mjs"], { cwd: project, timeout: 120_000 })
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ status: 201, email: "tara@example.com" })
  })

  it("a CommonJS project requires it (the `default` export condition)", async () => {
    const { stdout } = await run(process.execPath, ["index.cjs"], { cwd: project, timeout: 120_000 })
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ openapi: 200 })
  })

  it(
    `the roda-server binary starts on ${
      postgres === undefined ? "a new embedded data folder, from the shipped template," : "PostgreSQL"
    } and answers`,
    async () => {
      const dataDir = join(project, "server-data")
      const port = await freePort()
      const server = spawn(join(project, "node_modules", ".bin", "roda-server"), [], {
        cwd: project,
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          HOST: "127.0.0.1",
          ...(postgres === undefined ? { DATA_DIR: dataDir } : { DATABASE_URL: postgres }),
          JWT_SECRET: "a-secret-of-at-least-thirty-two-characters",
          PAYMENT_GATEWAY: "sandbox",
          SANDBOX_WEBHOOK_SECRET: "a-sandbox-webhook-secret-of-32-characters",
          LOG_LEVEL: "info"
        }
      })
      let output = ""
      server.stdout.on("data", (chunk) => output += chunk)
      server.stderr.on("data", (chunk) => output += chunk)
      try {
        const base = `http://127.0.0.1:${port}`
        for (let tries = 0; tries < 600; tries++) {
          if (await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false)) break
          if (server.exitCode !== null) throw new Error(`roda-server exited: ${output}`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        expect((await fetch(`${base}/readyz`)).status).toBe(200)
        expect((await fetch(`${base}/api/openapi.json`)).status).toBe(200)
        // Every migration was in the template (shipped, or the run's on PostgreSQL): none was applied at start.
        expect(output).not.toContain("applying")
        if (postgres === undefined) expect(existsSync(join(dataDir, "pg", "PG_VERSION"))).toBe(true)
      } finally {
        server.kill("SIGTERM")
        await new Promise((resolve) => server.exitCode !== null ? resolve(undefined) : server.once("exit", resolve))
      }
    },
    120_000
  )
})
