import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startBuiltServer } from "../../../testing/builtServer"
import { expectRecoveryByMail } from "../../../testing/recoveryByMail"
import { skipWhen } from "../../../testing/skips"
import { startSmtp } from "../../../testing/smtp"

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

/** The packages a stranger installs: the server's, and the client's. */
const published = () => closure("client", closure("http-node"))

const registryAnswers = () => run("npm", ["ping"], { timeout: 20_000 }).then(() => true, () => false)

// The server test runs on the run's database: a data folder in the embedded run, the test file's own
// PostgreSQL database (DATABASE_URL, testing/fileDatabase.ts) in the PostgreSQL run.
const postgres = process.env.DATABASE_URL
const offline = await registryAnswers() ? undefined : "the npm registry does not answer (npm ping)"

const project = mkdtempSync(join(tmpdir(), "roda-tarballs-"))
afterAll(() => rmSync(project, { recursive: true, force: true }))
const serverBin = join(project, "node_modules", ".bin", "roda-server")
const SECRET = "a-secret-of-at-least-thirty-two-characters"

/** A new account (its access token) that owns a new community, made over HTTP. */
const personWithCommunity = async (base: string) => {
  const post = async (path: string, body: unknown, token?: string) => {
    const reply = await fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
      },
      body: JSON.stringify(body)
    })
    expect(reply.status).toBe(201)
    return (await reply.json() as any).data
  }
  const { token } = await post("/api/auth/register", {
    fullName: "Mara Assistente",
    email: "mara@example.com",
    password: "Secret123"
  })
  const name = "Clube do Livro"
  const { id } = await post("/api/communities", { name }, token)
  return { token: token as string, community: { id: id as string, name } }
}

const ESM = `
import { FetchHttpClient } from "@effect/platform"
import { makeRodaClient } from "@roda/client"
import { createRodaFetchClient } from "@roda/client/fetch"
import { defaultOptions, makeRoda, secret } from "@roda/core/node"
import { toNodeHandler } from "@roda/http-node"
import { Effect } from "effect"
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
const email = (await reply.json()).data.email
// The clients of @roda/client: the fetch client signs in, the Effect client reads the account.
const baseUrl = \`http://127.0.0.1:\${server.address().port}\`
const login = await createRodaFetchClient({ baseUrl }).POST("/api/auth/login", { body: { email, password: "Secret123" } })
const me = await Effect.runPromise(
  Effect.flatMap(makeRodaClient({ baseUrl, token: login.data.data.token }), (roda) => roda.identity.me({}))
    .pipe(Effect.provide(FetchHttpClient.layer))
)
console.log(JSON.stringify({ status: reply.status, email, login: login.response.status, me: me.data.email }))
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
    const names = published()
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
        dependencies: { ...tarballs, effect: "^3.22.4", "@effect/platform": "^0.97.2" }
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
    for (const name of published()) {
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
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({
      status: 201,
      email: "tara@example.com",
      login: 200,
      me: "tara@example.com"
    })
  })

  it("a CommonJS project requires it (the `default` export condition)", async () => {
    const { stdout } = await run(process.execPath, ["index.cjs"], { cwd: project, timeout: 120_000 })
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ openapi: 200 })
  })

  it(
    `the roda-server binary starts on ${
      postgres === undefined ? "a new embedded data folder, from the shipped template," : "PostgreSQL"
    } and answers; its recovery e-mail goes out over SMTP_URL and its link sets a password`,
    async () => {
      const smtp = await startSmtp()
      const server = await startBuiltServer({ LOG_LEVEL: "info", SMTP_URL: smtp.url }, { bin: serverBin, cwd: project })
      try {
        expect((await fetch(`${server.base}/api/openapi.json`)).status).toBe(200)
        // Every migration was in the template (shipped, or the run's on PostgreSQL): none was applied at start.
        expect(server.output()).toContain("Roda listening on") // its info lines are written
        expect(server.output()).not.toContain("applying")
        if (postgres === undefined) expect(existsSync(join(server.dataDir!, "pg", "PG_VERSION"))).toBe(true)
        await expectRecoveryByMail(server.base, smtp)
      } finally {
        await server.stop()
        await smtp.close()
      }
    },
    120_000
  )

  it(
    "the MCP client example's configuration (examples/mcp-client) starts the installed roda-mcp over stdio",
    async () => {
      const config = JSON.parse(
        readFileSync(new URL("../../mcp-client/claude_desktop_config.json", import.meta.url), "utf8")
      )
      const { args, command, env } = config.mcpServers.roda as { command: string; args: Array<string>; env: any }
      // What the person filling the configuration in has: the server's data folder (or its database
      // settings), an access token from POST /api/auth/login, and their community's id.
      const dataDir = join(project, "mcp-data")
      const database = postgres === undefined ? { DATA_DIR: dataDir } : {
        DATABASE_URL: postgres,
        JWT_SECRET: SECRET,
        PAYMENT_GATEWAY: "sandbox",
        SANDBOX_WEBHOOK_SECRET: `whsec_${Buffer.from(SECRET).toString("base64")}`
      }
      // Embedded, the server keeps the JWT secret it generated in DATA_DIR, and roda-mcp reads it there.
      const server = await startBuiltServer({ ...database, JWT_SECRET: postgres === undefined ? undefined : SECRET }, {
        bin: serverBin,
        cwd: project
      })
      let person: { token: string; community: { id: string; name: string } }
      try {
        person = await personWithCommunity(server.base)
      } finally {
        await server.stop()
      }
      const { DATA_DIR: _placeholder, ...rest } = env
      const transport = new StdioClientTransport({
        command,
        args,
        cwd: project,
        env: {
          ...rest,
          ...database,
          PATH: process.env.PATH ?? "",
          RODA_TOKEN: person.token,
          RODA_COMMUNITY_ID: person.community.id
        },
        stderr: "pipe"
      })
      const mcp = new Client({ name: "mcp-client-example", version: "1.0.0" })
      await mcp.connect(transport)
      try {
        expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain("community_overview")
        const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
        expect(overview.isError).not.toBe(true)
        expect(JSON.stringify(overview.structuredContent)).toContain(person.community.name)
      } finally {
        await mcp.close()
      }
    },
    180_000
  )
})
