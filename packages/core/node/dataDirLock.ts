/**
 * One writer per embedded database: a process that opens a data folder holds `<folder>.lock`
 * (`DATA_DIR/pg.lock`), a file holding its pid, made with `open(…, "wx")` so that of two processes
 * starting at once exactly one makes it. It is removed when the process closes the database or exits.
 * A lock whose process is gone (killed, crashed) is stale and taken over.
 *
 * Synchronous, on node:fs: the server takes it in `prestart.ts` before it has loaded the rest of itself. Within one process the lock is shared: the early start and the database layer of the same
 * process hold it together.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs"
import { dirname, resolve } from "node:path"

/** Another process holds the data folder. */
export class DataDirInUse extends Error {
  override readonly name = "DataDirInUse"
  constructor(readonly pid: number) {
    super(`DATA_DIR in use by process ${pid}: stop it, or use DATABASE_URL`)
  }
}

interface Held {
  count: number
}

/**
 * The locks this process holds, by file, on `globalThis`: a program may carry two copies of this
 * module (a bundle and a package), which must still see one another's locks.
 */
const held: Map<string, Held> =
  ((globalThis as Record<symbol, unknown>)[Symbol.for("@roda/core/dataDirLocks")] ??= new Map()) as Map<string, Held>

/** How long a lock file may stay empty (its maker between creating it and writing its pid) before it is stale. */
const EMPTY_GRACE_MS = 2_000
/** A takeover whose maker died is abandoned after this long. */
const TAKEOVER_GRACE_MS = 10_000

export const lockFileOf = (folder: string) => `${resolve(folder)}.lock`

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === "EPERM" // alive, another user's
  }
}

const codeOf = (error: unknown) => (error as { code?: string }).code

/** The lock file's pid; `undefined` when it is gone; `NaN` when it holds no pid (yet). */
const readPid = (file: string): number | undefined => {
  try {
    const text = readFileSync(file, "utf8").trim()
    return /^\d+$/.test(text) ? Number(text) : Number.NaN
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined
    throw error
  }
}

const ageOf = (file: string) => {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/** Makes `file` with this process's pid, atomically; false when it exists. */
const create = (file: string) => {
  let fd: number
  try {
    fd = openSync(file, "wx", 0o644)
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false
    throw error
  }
  try {
    writeSync(fd, `${process.pid}\n`)
  } finally {
    closeSync(fd)
  }
  return true
}

/**
 * Removes the stale lock `file` (holding `stalePid`) unless someone else replaced it meanwhile. Takers
 * take turns through `<file>.takeover` (made with "wx" too): only the holder of that removes, and only
 * a file still holding what it saw stale; makers never replace an existing file. True once it is gone.
 */
const removeStale = (file: string, stalePid: number) => {
  const takeover = `${file}.takeover`
  if (!create(takeover)) {
    if (ageOf(takeover) > TAKEOVER_GRACE_MS) unlinkSync(takeover)
    return false
  }
  try {
    const now = readPid(file)
    if (now === undefined) return true
    if (!Object.is(now, stalePid)) return false
    unlinkSync(file)
    return true
  } finally {
    try {
      unlinkSync(takeover)
    } catch {
      // taken from a taker thought dead
    }
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** A lock held by a process that is gone, or by an earlier process that had this pid (a container's pid 1). */
const isStale = (pid: number) => pid === process.pid || !isAlive(pid)

/**
 * Takes the lock of the embedded database in `folder` (its parent made if missing) for this process,
 * or throws `DataDirInUse` naming the process that holds it. Returns its release (the file is removed
 * once every holder in this process has released it, or when the process exits).
 */
export const lockDataDir = (folder: string): () => void => {
  const file = lockFileOf(folder)
  const mine = held.get(file)
  if (mine !== undefined) {
    mine.count++
  } else {
    mkdirSync(dirname(file), { recursive: true })
    for (;;) {
      if (create(file)) break
      const pid = readPid(file)
      if (pid === undefined) continue // released meanwhile: try again
      if (Number.isNaN(pid)) {
        // Its maker is writing its pid, or died before it could.
        if (ageOf(file) < EMPTY_GRACE_MS) sleep(20)
        else removeStale(file, pid)
        continue
      }
      if (!isStale(pid)) throw new DataDirInUse(pid)
      if (!removeStale(file, pid)) sleep(20)
    }
    held.set(file, { count: 1 })
    watchExit()
  }
  let released = false
  return () => {
    if (released) return
    released = true
    const entry = held.get(file)
    if (entry === undefined || --entry.count > 0) return
    held.delete(file)
    removeOwn(file)
  }
}

/** Removes `file` if it is this process's. */
const removeOwn = (file: string) => {
  try {
    if (readPid(file) === process.pid) unlinkSync(file)
  } catch {
    // gone already, or its folder with it
  }
}

let watching = false

/** Whatever ends the process (its end, `process.exit` after SIGINT or SIGTERM) removes its locks. */
const watchExit = () => {
  if (watching) return
  watching = true
  process.once("exit", () => {
    for (const file of held.keys()) removeOwn(file)
    held.clear()
  })
}
