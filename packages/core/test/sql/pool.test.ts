import { Redacted } from "effect"
import pg from "pg"
import { expect, it, vi } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { POOL_IDLE_MS, poolOptions } from "../../node/sql/Database"

skipWhen(POSTGRES_ONLY).describe("the PostgreSQL pool", () => {
  it("keeps its connections through a quiet spell and closes them after five idle minutes", async () => {
    const pool = new pg.Pool(poolOptions(Redacted.make(process.env.DATABASE_URL!)))
    // A connection closed by the idle timer ends on its own time: the test waits for all four to end
    // (the file's database is dropped, WITH FORCE, right after it), and an error while ending is no
    // failure of the pool's.
    pool.on("error", () => undefined)
    let removed = 0
    const allRemoved = new Promise<void>((resolve) =>
      pool.on("remove", () => {
        if (++removed === 4) resolve()
      })
    )
    // The pool's idle timers (set as a connection is released) run on a fake clock; the sockets do not.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
    try {
      await Promise.all(Array.from({ length: 4 }, () => pool.query("SELECT pg_sleep(0.05)")))
      expect(pool.totalCount).toBe(4)
      expect(pool.idleCount).toBe(4)
      vi.advanceTimersByTime(60_000)
      expect(pool.totalCount).toBe(4)
      vi.advanceTimersByTime(POOL_IDLE_MS)
      expect(pool.totalCount).toBe(0)
      await allRemoved
    } finally {
      vi.useRealTimers()
      await pool.end()
    }
  })

  it("runs statements without JIT compilation", async () => {
    const pool = new pg.Pool(poolOptions(Redacted.make(process.env.DATABASE_URL!)))
    pool.on("error", () => undefined)
    try {
      const { rows } = await pool.query("SHOW jit")
      expect(rows[0].jit).toBe("off")
    } finally {
      await pool.end()
    }
  })
})
