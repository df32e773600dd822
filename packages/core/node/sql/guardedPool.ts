/**
 * A node-postgres pool through which an interrupted statement cannot reach another request's.
 *
 * A request whose client leaves is interrupted, often while one of its statements runs.
 * `@effect/sql-pg` answers that with `SELECT pg_cancel_backend(<pid>)` sent through the pool
 * (`pool.query`). That query waits for a free connection while the interrupted statement finishes and
 * its connection goes back to the pool, and then cancels whatever that backend runs by then: another
 * request's statement, or its own query (PostgreSQL's log held such cancels of unrelated statements
 * after load runs; bench/README.md).
 *
 * This pool answers that one query itself and never sends it. It answers once the interrupted
 * statement has answered, found by the pid among the pool's connections: an empty query queued behind
 * the statement on the same connection answers right after it. Until then `@effect/sql-pg` keeps the
 * connection (its interruption waits for the cancel), and when the statement answers it gives the
 * connection back as after any statement. A statement still running after `ABANDON_AFTER_MS` is
 * abandoned: the cancel is answered and the connection's next release closes it (a release with an
 * error makes the pool end the connection), so no one else's statement queues behind it.
 * `ABANDON_AFTER_MS` is below the 5 s `@effect/sql-pg` gives the cancel, so this pool always answers
 * first (timers run in the order they fall due).
 *
 * The alternative, a `SqlClient` of Roda's own, would copy most of `@effect/sql-pg`; this keeps its
 * client, compiler and statements as they are, with one `Map` entry per connection and no cost per
 * statement.
 */
import pg from "pg"

/** How long an interrupted statement is waited for before its connection is dropped. */
export const ABANDON_AFTER_MS = 4_500

/** The text `@effect/sql-pg` sends through the pool to cancel an interrupted statement. */
const CANCEL = /^SELECT pg_cancel_backend\((\d+)\)$/

interface Guarded {
  processID?: number | null
  release: (err?: Error | boolean) => void
  query: (text: string, callback: () => void) => void
}

const noRows = { command: "SELECT", rowCount: 0, oid: 0, rows: [], fields: [] }

/** Resolves once what `client` runs now has answered, or after `ABANDON_AFTER_MS`, then abandoning it. */
const answered = (client: Guarded | undefined) =>
  new Promise<void>((resolve) => {
    if (client === undefined) return resolve()
    const timer = setTimeout(() => {
      const release = client.release
      client.release = (err) =>
        release(err instanceof Error ? err : new Error("statement abandoned after interruption"))
      resolve()
    }, ABANDON_AFTER_MS)
    client.query("", () => {
      clearTimeout(timer)
      resolve()
    })
  })

export class GuardedPool extends pg.Pool {
  private readonly byPid = new Map<number, Guarded>()

  constructor(config?: pg.PoolConfig) {
    super(config)
    this.on("connect", (client) => {
      const pid = (client as Guarded).processID
      if (typeof pid === "number") this.byPid.set(pid, client as unknown as Guarded)
    })
    this.on("remove", (client) => {
      const pid = (client as Guarded).processID
      if (typeof pid === "number" && this.byPid.get(pid) === (client as unknown)) this.byPid.delete(pid)
    })
  }

  override query(...args: Array<any>): any {
    const cancel = typeof args[0] === "string" ? CANCEL.exec(args[0]) : null
    if (cancel === null) return (super.query as (...a: Array<any>) => any)(...args)
    const done = answered(this.byPid.get(Number(cancel[1]))).then(() => noRows)
    const callback = args.find((arg) => typeof arg === "function") as ((e: undefined, r: unknown) => void) | undefined
    if (callback === undefined) return done
    void done.then((rows) => callback(undefined, rows))
    return undefined
  }
}
