import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { freePort } from "../../../testing/ports"
import { BIN, createCommunity, jsonOf, makeWorld, register, SPAWNS, uniqueEmail } from "./support"

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

describe("roda migrate", SPAWNS, () => {
  it("shows the status, applies what is pending, and shows it applied", async () => {
    const world = await makeWorld([])
    const before = jsonOf(await world.cli(["migrate", "--status", "--json"]))
    const names = before.migrations.map((row: any) => row.name)
    expect(names.slice(0, 2)).toEqual(["identity", "communities"])
    expect(before.migrations.map((row: any) => row.id)).toEqual([...before.migrations.map((row: any) => row.id)].sort(
      (a: number, b: number) => a - b
    ))
    if (!world.postgres) {
      expect(before.database).toBe(`${world.dataDir}/pg`)
      expect(before.migrations.every((row: any) => row.state === "pending" && row.appliedAt === null)).toBe(true)
    }

    const applied = await world.cli(["migrate", "--json"])
    const report = jsonOf(applied)
    expect(report.migrations.map((row: any) => row.name)).toEqual(names)
    expect(report.migrations.every((row: any) => row.state !== "pending" && row.appliedAt !== null)).toBe(true)
    if (!world.postgres) expect(report.migrations.every((row: any) => row.state === "applied now")).toBe(true)

    const again = await world.cli(["migrate"])
    expect(again.code).toBe(0)
    const lines = again.stdout.trim().split("\n")
    expect(lines[1]).toMatch(/^ID\s+NAME\s+STATE\s+APPLIED AT$/)
    expect(lines[2]).toMatch(/^0001\s+identity\s+applied\s+\d{4}-/)
    expect(lines.at(-1)).toBe(`0 applied now, ${names.length} already applied, 0 pending`)
  })

  it("answers 1 with the configuration's reason, on one line, when the configuration is refused", async () => {
    const world = await makeWorld([])
    const run = await world.cli(["migrate"], { JWT_SECRET: "short" })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      "JWT_SECRET: must be at least 32 characters long (it has 5) — set it to 32 or more random characters, e.g. the output of: openssl rand -base64 48"
    )
  })

  // The PostgreSQL of the test environment (DATABASE_URL), else the usual local one.
  const local = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres")
  const onPostgres = (url: string) => ({
    DATABASE_URL: url,
    PAYMENT_GATEWAY: "sandbox",
    SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="
  })

  it("answers 1 with the cause and the redacted target, on one line, when PostgreSQL refuses the connection", async () => {
    const world = await makeWorld([])
    const port = await freePort()
    const run = await world.cli(["migrate"], onPostgres(`postgres://roda:s3cret-pw@127.0.0.1:${port}/roda`))
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      `DATABASE_URL: cannot connect to PostgreSQL at postgres://roda@127.0.0.1:${port}/roda: connection refused (is PostgreSQL running and listening there?) — check its host, port, database, user and password, and that this machine may connect`
    )
  })

  it("answers 1 naming the unknown database, with the password left out", async () => {
    const world = await makeWorld([])
    const url = new URL(local)
    url.pathname = `/roda_missing_${Date.now()}`
    url.password = "s3cret-pw"
    const run = await world.cli(["migrate", "--status"], onPostgres(url.toString()))
    expect(run.code).toBe(1)
    const target = new URL(url)
    target.password = ""
    const name = url.pathname.slice(1)
    expect(run.stderr.trim()).toMatch(
      new RegExp(
        `^DATABASE_URL: cannot connect to PostgreSQL at ${
          escape(target.toString())
        }: unknown database \\(.*${name}.*\\) — `
      )
    )
    expect(run.stderr).not.toContain("s3cret-pw")
  })
})

describe("roda serve", SPAWNS, () => {
  it("runs the server with the server's environment and stops on SIGTERM", async () => {
    const world = await makeWorld([])
    const port = await freePort()
    const child = spawn(process.execPath, [BIN, "serve"], {
      env: { ...world.env, PORT: String(port), LOG_FORMAT: "json", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve))
    const deadline = Date.now() + 90_000
    let health: Response | undefined
    while (Date.now() < deadline) {
      health = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined)
      if (health?.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(health?.status, output).toBe(200)
    const me = await fetch(`http://127.0.0.1:${port}/api/auth/me`)
    expect(me.status).toBe(401)
    expect(output).toContain("Roda listening on")
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
  })
})

describe("roda mcp", SPAWNS, () => {
  it("serves the MCP tools over stdio to the account of RODA_TOKEN, until stdin closes", async () => {
    const world = await makeWorld([])
    const { community, token } = await world.withRoda(async (api) => {
      const owner = await register(api, uniqueEmail("owner"))
      return { community: (await createCommunity(api, owner)).id, token: owner.token }
    })
    const child = spawn(process.execPath, [BIN, "mcp"], {
      env: { ...world.env, RODA_TOKEN: token, RODA_COMMUNITY_ID: community },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve))
    const answer = (id: number) =>
      new Promise<any>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer ${id}: ${stderr}`)), 90_000)
        const read = () => {
          const line = stdout.split("\n").find((text) => text.includes(`"id":${id}`))
          if (line === undefined) return
          clearTimeout(timer)
          child.stdout.off("data", onData)
          resolve(JSON.parse(line))
        }
        const onData = (chunk: Buffer) => {
          stdout += chunk
          read()
        }
        child.stdout.on("data", onData)
        read()
      })
    const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n")
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cli-test", version: "1.0.0" } }
    })
    const initialized = await answer(1)
    expect(initialized.result.serverInfo.name).toBeTruthy()
    send({ jsonrpc: "2.0", method: "notifications/initialized" })
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" })
    const listed = await answer(2)
    expect(listed.result.tools.length).toBeGreaterThan(0)
    // stdout carried JSON-RPC only
    for (const line of stdout.trim().split("\n")) expect(JSON.parse(line).jsonrpc).toBe("2.0")
    child.stdin.end()
    expect(await exited).toBe(0)
  })

  it("refuses to start without credentials (exit 1, one line)", async () => {
    const world = await makeWorld([])
    const run = await world.cli(["mcp"])
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split("\n")).toHaveLength(1)
    expect(run.stderr).toContain("RODA_TOKEN")
  })
})

describe("usage", SPAWNS, () => {
  it("prints help (exit 0) and refuses unknown commands and options (exit 2)", async () => {
    const world = await makeWorld([])
    const help = await world.cli(["--help"])
    expect(help.code).toBe(0)
    for (const command of ["serve", "migrate", "mcp", "admin", "payouts", "certificates"]) {
      expect(help.stdout).toContain(command)
    }
    expect((await world.cli(["--version"])).stdout).toContain("0.1.0")
    expect((await world.cli(["migrate", "--nope"])).code).toBe(2)
    expect((await world.cli(["unknown"])).code).toBe(2)
  })
})
