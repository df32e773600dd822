import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { DataDirInUse, lockDataDir } from "../../node/dataDirLock"

const CONTENDER = fileURLToPath(new URL("./lockContender.ts", import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), "roda-lock-unit-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const newFolder = () => join(scratch, `data-${++folders}`, "pg")

/** A pid no process has now. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!

/**
 * `count` processes that try to take the lock of `folder` at the same instant: what each printed,
 * once all have tried (a winner holds the lock until then, and exits when its stdin is closed).
 */
const contend = async (folder: string, count: number) => {
  const at = String(Date.now() + 5_000)
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ["--import", "tsx", CONTENDER, folder, at], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    let out = ""
    const printed = new Promise<string>((resolve) =>
      child.stdout.on("data", (chunk) => {
        out += chunk
        if (out.endsWith("\n")) resolve(out.trim())
      })
    )
    const closed = new Promise((resolve) => child.once("close", resolve))
    return { child, printed, closed }
  })
  const results = await Promise.all(children.map(({ printed }) => printed))
  for (const { child } of children) child.stdin.end()
  await Promise.all(children.map(({ closed }) => closed))
  return results
}

describe("DATA_DIR's lock file", () => {
  it("holds the pid, is shared within the process, and is removed by the last release", () => {
    const folder = newFolder()
    const first = lockDataDir(folder)
    const second = lockDataDir(folder)
    expect(readFileSync(`${folder}.lock`, "utf8")).toBe(`${process.pid}\n`)
    first()
    first()
    expect(existsSync(`${folder}.lock`)).toBe(true)
    second()
    expect(existsSync(`${folder}.lock`)).toBe(false)
  })

  it("refuses a folder a live process holds, naming it", () => {
    const folder = newFolder()
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"])
    try {
      lockDataDir(join(folder, "..", "x")) // the parent exists now
      writeFileSync(`${folder}.lock`, `${holder.pid}\n`)
      expect(() => lockDataDir(folder)).toThrow(new DataDirInUse(holder.pid!))
      expect(() => lockDataDir(folder)).toThrow(
        `DATA_DIR in use by process ${holder.pid}: stop it, or use DATABASE_URL`
      )
      expect(readFileSync(`${folder}.lock`, "utf8")).toBe(`${holder.pid}\n`)
    } finally {
      holder.kill()
    }
  })

  it("takes over a lock whose process is gone, and an empty one left long ago", () => {
    const folder = newFolder()
    lockDataDir(join(folder, "..", "x"))
    writeFileSync(`${folder}.lock`, `${deadPid()}\n`)
    lockDataDir(folder)()
    writeFileSync(`${folder}.lock`, "")
    const long = new Date(Date.now() - 60_000)
    utimesSync(`${folder}.lock`, long, long)
    lockDataDir(folder)()
    expect(existsSync(`${folder}.lock`)).toBe(false)
  })

  it("of eight processes at once, exactly one wins; also when they all find a stale lock", async () => {
    for (const stale of [false, true]) {
      const folder = newFolder()
      if (stale) {
        lockDataDir(join(folder, "..", "x"))
        writeFileSync(`${folder}.lock`, `${deadPid()}\n`)
      }
      const results = await contend(folder, 8)
      expect(results.filter((result) => result === "won"), results.join("\n")).toHaveLength(1)
      expect(results.filter((result) => /^DATA_DIR in use by process \d+: stop it, or use DATABASE_URL$/.test(result)))
        .toHaveLength(7)
      expect(existsSync(`${folder}.lock`)).toBe(false) // the winner's exit removed it
    }
  }, 60_000)
})
