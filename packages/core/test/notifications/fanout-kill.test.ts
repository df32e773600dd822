import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"

/**
 * Issue 55, item 2: a process that dies mid fan-out loses and duplicates nothing. The first process
 * queues a post's `space_post` fan-out to 1,000 followers and writes it in batches of 100; it is
 * killed with SIGKILL after a few batches (and maybe inside one). A second process on the same
 * database (PostgreSQL with DATABASE_URL, else the same embedded folder) finishes the chain: every
 * follower has exactly one notification.
 */
const FOLLOWERS = 1_000
const dir = mkdtempSync(join(tmpdir(), "roda-fanout-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (args: ReadonlyArray<string>) =>
  spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "fanout-child.ts"), ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"]
  })

/** Resolves with the text after `prefix` on the `nth` line that starts with it. */
const line = (child: ChildProcess, prefix: string, nth = 1) =>
  new Promise<string>((resolve, reject) => {
    let out = ""
    let errors = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const lines = out.split("\n").filter((l) => l.startsWith(prefix))
      if (lines.length >= nth) resolve(lines[nth - 1]!.slice(prefix.length))
    })
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()))
    child.on("exit", (code, signal) => reject(new Error(`exited ${code ?? signal} before "${prefix}": ${errors}`)))
  })

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)))

it("finishes a fan-out whose process was killed mid-way: each follower told exactly once", async () => {
  const dataDir = join(dir, "db")
  const first = run(["post", dataDir, String(FOLLOWERS)])
  const subjectId = await line(first, "queued ")
  await line(first, "batch", 3)
  const firstExit = exited(first)
  first.kill("SIGKILL")
  expect(await firstExit).toBe("SIGKILL")

  const second = run(["finish", dataDir, subjectId])
  try {
    const [rows, people] = (await line(second, "counted ")).split(" ").map(Number)
    expect({ rows, people }).toEqual({ rows: FOLLOWERS, people: FOLLOWERS })
  } finally {
    const secondExit = exited(second)
    second.kill("SIGTERM")
    await secondExit
  }
}, 180_000)
