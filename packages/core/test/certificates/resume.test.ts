import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

/**
 * Kill and resume (issue 13): a child process issues a batch of 500 and is killed with SIGKILL in the
 * middle; a new process on the same database and files finishes it, and every recipient ends with
 * exactly one issued certificate, one PDF and one e-mail. Runs on PostgreSQL when DATABASE_URL is
 * set, else on an embedded database in a folder (the two processes run one after the other).
 */
const RECIPIENTS = 500
const script = join(import.meta.dirname, "batch-child.ts")
const dir = mkdtempSync(join(tmpdir(), "roda-resume-"))
const dataDir = join(dir, "db")
const blobDir = join(dir, "blobs")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (args: ReadonlyArray<string>) =>
  spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"]
  })

const lines = (child: ChildProcess, onLine: (line: string) => void) => {
  let buffer = ""
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString()
    let index: number
    while ((index = buffer.indexOf("\n")) >= 0) {
      onLine(buffer.slice(0, index))
      buffer = buffer.slice(index + 1)
    }
  })
  let errors = ""
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()))
  return () => errors
}

describe("a batch survives SIGKILL", () => {
  it(
    `finishes a batch of ${RECIPIENTS} after the process is killed mid-way, each recipient issued exactly once`,
    async () => {
      const first = run(["setup", dataDir, blobDir, String(RECIPIENTS)])
      let batchId = ""
      let issuedAtKill = -1
      const errors = lines(first, (line) => {
        if (line.startsWith("batch ")) batchId = line.slice(6)
        if (line.startsWith("progress ")) {
          const issued = Number(line.slice(9))
          if (issued >= 20 && issuedAtKill < 0) {
            issuedAtKill = issued
            first.kill("SIGKILL")
          }
        }
      })
      const exit = await new Promise<NodeJS.Signals | number | null>((resolve) =>
        first.on("exit", (code, signal) => resolve(signal ?? code))
      )
      expect(exit, errors()).toBe("SIGKILL")
      expect(batchId).toMatch(/^[0-9a-f-]{36}$/)
      expect(issuedAtKill).toBeGreaterThanOrEqual(20)
      expect(issuedAtKill).toBeLessThan(RECIPIENTS)

      const second = run(["resume", dataDir, blobDir, String(RECIPIENTS), batchId])
      let summary: any
      const errors2 = lines(second, (line) => {
        if (line.startsWith("summary ")) summary = JSON.parse(line.slice(8))
      })
      const code = await new Promise<number | null>((resolve) => second.on("exit", (value) => resolve(value)))
      expect(code, errors2()).toBe(0)
      expect(summary.batch).toEqual({
        status: "completed",
        total: RECIPIENTS,
        issued: RECIPIENTS,
        failed: 0,
        skipped: 0
      })
      expect(summary.statuses).toEqual([{ status: "issued", count: RECIPIENTS }])
      expect(summary.duplicates).toEqual([])
      expect(summary.withoutFile).toBe(0)
      expect(summary.mails).toHaveLength(RECIPIENTS)
      expect(summary.mails.every((mail: any) => mail.count === 1)).toBe(true)
      const files = existsSync(blobDir)
        ? readdirSync(blobDir, { recursive: true }).filter((f) => String(f).endsWith(".pdf"))
        : []
      expect(files).toHaveLength(RECIPIENTS)
    },
    900_000
  )
})
