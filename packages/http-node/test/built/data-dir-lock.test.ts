import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { runBuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { freePort } from "../../../../testing/ports"
import { runToEnd } from "../../../../testing/runToEnd"

/**
 * One writer per embedded database, with the built binaries: a process that opens DATA_DIR holds
 * DATA_DIR/pg.lock (its pid) until it exits; every other roda-server, roda and roda-mcp refuses.
 */
const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url))
const MCP = fileURLToPath(new URL("../../../mcp/dist/stdio.js", import.meta.url))
const SLOW = { timeout: 180_000 } as const

const scratch = mkdtempSync(join(tmpdir(), "roda-lock-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const newDataDir = () => join(scratch, `data-${++folders}`)

const JWT_SECRET = "a-secret-of-at-least-thirty-two-characters"
const inUse = (pid: number) => `DATA_DIR in use by process ${pid}: stop it, or use DATABASE_URL`

/** Runs a built Node entry (the CLI, the MCP server) with exactly `env`, to its end. */
const runNode = (entry: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  runToEnd(process.execPath, [entry, ...args], { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", JWT_SECRET, ...env })

const cli = (dataDir: string, ...args: Array<string>) => runNode(CLI, args, { DATA_DIR: dataDir })

/** A pid no process has now: a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!

describe("the embedded database has one process at a time", SLOW, () => {
  it("a second server, the CLI and roda-mcp are refused while a server runs; the CLI works once it stops", async () => {
    const dataDir = newDataDir()
    const server = await startBuiltServer({ DATA_DIR: dataDir }, { embedded: true })
    try {
      const pid = server.process.pid!
      expect(readFileSync(join(dataDir, "pg.lock"), "utf8").trim()).toBe(String(pid))

      const second = await runBuiltServer({ DATA_DIR: dataDir, JWT_SECRET, PORT: String(await freePort()) })
      expect(second.code).toBe(1)
      expect(second.stderr.trim().split("\n")).toEqual(["Roda could not start:", inUse(pid)])

      const command = await cli(dataDir, "migrate", "--status")
      expect(command.code).toBe(1)
      expect(command.stderr.trim()).toBe(inUse(pid))

      const assistant = await runNode(MCP, [], { DATA_DIR: dataDir, RODA_TOKEN: "t", RODA_COMMUNITY_ID: "c" })
      expect(assistant.code).toBe(1)
      expect(assistant.stderr.trim().split("\n")).toEqual(["roda mcp could not start:", inUse(pid)])

      expect(await fetch(`${server.base}/readyz`).then((reply) => reply.status)).toBe(200)
    } finally {
      await server.stop()
    }
    expect(server.process.exitCode).toBe(0)
    expect(existsSync(join(dataDir, "pg.lock"))).toBe(false)
    const after = await cli(dataDir, "migrate", "--status", "--json")
    expect(after.code, after.stderr).toBe(0)
    expect(JSON.parse(after.stdout).migrations.every((row: { state: string }) => row.state === "applied")).toBe(true)
    expect(existsSync(join(dataDir, "pg.lock"))).toBe(false)
  })

  it("a lock left by a process that is gone is taken over", async () => {
    const dataDir = newDataDir()
    const server = await startBuiltServer({ DATA_DIR: dataDir }, { embedded: true })
    server.process.kill("SIGKILL") // no chance to remove its lock
    await server.stop()
    expect(readFileSync(join(dataDir, "pg.lock"), "utf8").trim()).toBe(String(server.process.pid))
    const afterCrash = await cli(dataDir, "migrate", "--status")
    expect(afterCrash.code, afterCrash.stderr).toBe(0)

    writeFileSync(join(dataDir, "pg.lock"), `${deadPid()}\n`)
    const restarted = await startBuiltServer({ DATA_DIR: dataDir }, { embedded: true })
    try {
      expect(readFileSync(join(dataDir, "pg.lock"), "utf8").trim()).toBe(String(restarted.process.pid))
    } finally {
      await restarted.stop()
    }
  })

  it("of two servers started at once on a new DATA_DIR, exactly one runs and the other names it", async () => {
    const dataDir = newDataDir()
    const ports = [await freePort(), await freePort()]
    const env = (port: number) => ({ DATA_DIR: dataDir, JWT_SECRET, PORT: String(port), LOG_LEVEL: "warn" })
    const starts = ports.map((port) => {
      const run = runBuiltServer(env(port), 90_000)
      return { port, run }
    })
    // The winner runs until stopped: found by its port; the loser exits.
    const loser = await Promise.race(starts.map(({ port, run }) => run.then((exited) => ({ port, exited }))))
    const winner = starts.find((start) => start.port !== loser.port)!
    expect(loser.exited.code).toBe(1)
    const pid = Number(readFileSync(join(dataDir, "pg.lock"), "utf8").trim())
    expect(loser.exited.stderr.trim().split("\n")).toEqual(["Roda could not start:", inUse(pid)])
    let ready = false
    for (let tries = 0; tries < 300 && !ready; tries++) {
      ready = await fetch(`http://127.0.0.1:${winner.port}/readyz`).then((reply) => reply.status === 200, () => false)
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(ready).toBe(true)
    process.kill(pid, "SIGTERM")
    expect((await winner.run).code).toBe(0)
    expect(existsSync(join(dataDir, "pg.lock"))).toBe(false)
  })
})

describe("a DATA_DIR that does not exist", SLOW, () => {
  it("is refused by the CLI and roda-mcp, naming DATA_DIR, and not made", async () => {
    const typo = join(scratch, "no-such-data")
    const command = await cli(typo, "migrate", "--status")
    expect(command.code).toBe(1)
    expect(command.stderr.trim()).toBe(
      `DATA_DIR: ${typo} does not exist — check the path (a typo would open a new, empty database); only the server (roda-server, roda serve) creates it, on its first start`
    )
    const assistant = await runNode(MCP, [], { DATA_DIR: typo, RODA_TOKEN: "t", RODA_COMMUNITY_ID: "c" })
    expect(assistant.code).toBe(1)
    expect(assistant.stderr).toContain(`DATA_DIR: ${typo} does not exist`)
    expect(existsSync(typo)).toBe(false)
  })

  it("is made by the server's first start", async () => {
    const dataDir = join(newDataDir(), "nested")
    const server = await startBuiltServer({ DATA_DIR: dataDir }, { embedded: true })
    await server.stop()
    expect(existsSync(join(dataDir, "pg", "PG_VERSION"))).toBe(true)
  })
})
