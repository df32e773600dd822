import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startReceiver } from "./receiver"

/**
 * Issue 54, item 3: an event committed with its change is delivered even when the process dies right
 * after the commit. The first process has no delivery worker, so the event can only reach the
 * receiver from the database: it commits, is killed with SIGKILL, and a second process on the same
 * database (PostgreSQL with DATABASE_URL, else the same embedded folder) delivers it.
 */
const dir = mkdtempSync(join(tmpdir(), "roda-outbox-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (args: ReadonlyArray<string>) =>
  spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "outbox-child.ts"), ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"]
  })

const firstLine = (child: ChildProcess, prefix: string) =>
  new Promise<string>((resolve, reject) => {
    let out = ""
    let errors = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split("\n").find((l) => l.startsWith(prefix))
      if (line !== undefined) resolve(line.slice(prefix.length))
    })
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()))
    child.on("exit", (code, signal) => reject(new Error(`exited ${code ?? signal} before "${prefix}": ${errors}`)))
  })

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)))

it("delivers an event whose process was killed with SIGKILL right after the commit", async () => {
  const receiver = await startReceiver()
  try {
    const dataDir = join(dir, "db")
    const first = run(["emit", dataDir, receiver.url("/killed")])
    const marker = await firstLine(first, "committed ")
    const firstExit = exited(first)
    first.kill("SIGKILL")
    expect(await firstExit).toBe("SIGKILL")
    expect(receiver.received).toHaveLength(0)

    const second = run(["deliver", dataDir])
    try {
      const [request] = await receiver.waitFor("/killed", 1, 60_000)
      const body = JSON.parse(request!.body)
      expect(body).toMatchObject({ type: "post.created", data: { id: marker } })
    } finally {
      const secondExit = exited(second)
      second.kill("SIGTERM")
      await secondExit
    }
  } finally {
    await receiver.close()
  }
}, 120_000)
