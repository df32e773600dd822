import { randomUUID } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../testing/skips"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, type Roda, secret } from "../node/index"
import { type Client, client, makeCommunity, type Reply } from "./support/harness"

/**
 * Issue 10, item 10: database connections killed in the middle of a burst of creating POSTs. No
 * answer is a 500, every 201 names a row that exists, and retrying the 503s with their
 * Idempotency-Key never duplicates a row. Needs a PostgreSQL server (`pg_terminate_backend`); PGlite
 * is one in-process session with no backends to kill.
 */
/** The file's own database (testing/fileDatabase.ts): terminating its backends disturbs no other file. */
const databaseUrl = process.env.DATABASE_URL

/** The little of node-postgres this suite uses (the package ships no types). */
interface PgConnection {
  connect(): Promise<void>
  query<Row = Record<string, unknown>>(
    text: string,
    values?: ReadonlyArray<unknown>
  ): Promise<{ rows: Array<Row>; rowCount: number | null }>
  end(): Promise<void>
  on(event: "error", listener: (error: Error) => void): void
}
const { Client } = pg as unknown as { Client: new(config: { connectionString: string }) => PgConnection }

skipWhen(POSTGRES_ONLY).describe(
  "killed database connections (PostgreSQL only: PGlite has no backends to kill)",
  () => {
    let roda: Roda
    let api: Client
    let killer: PgConnection
    let auth: { token: string; community: string }

    beforeAll(async () => {
      roda = makeRoda({
        database: { _tag: "Postgres", url: secret(databaseUrl!) },
        options: defaultOptions({
          jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
          publicBaseUrl: "http://roda.test",
          rateLimits: RATE_LIMITS_OFF
        })
      })
      api = client(roda)
      const { owner, community } = await makeCommunity(api, "Queda de Conexão")
      auth = { token: owner.token, community: community.id }
      killer = new Client({ connectionString: databaseUrl! })
      killer.on("error", () => undefined)
      await killer.connect()
    })

    afterAll(async () => {
      await killer?.end().catch(() => undefined)
      await roda?.dispose()
    })

    const terminated = new Set<number>()

    /** Terminates every backend of the test database but the killer's own; answers how many. */
    const killBackends = async () => {
      const result = await killer.query<{ pid: number }>(
        `SELECT pid, pg_terminate_backend(pid) AS killed FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`
      )
      for (const row of result.rows) terminated.add(row.pid)
      return result.rowCount ?? 0
    }

    /**
     * Waits until every backend the storm terminated has exited. pg_terminate_backend only signals
     * it: a backend still on its way out (a busy machine may not schedule it for a while) could take
     * a retry's first statement and die under it, and that retry would not be calm.
     */
    const stormOver = async () => {
      for (let attempt = 0; attempt < 500; attempt++) {
        const alive = await killer.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM pg_stat_activity WHERE pid = ANY($1::int[])",
          [[...terminated]]
        )
        if (alive.rows[0]!.count === 0) return
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error("terminated backends did not exit within 5 s")
    }

    const create = (key: string, title: string) =>
      api.post("/api/sections", { title }, { ...auth, headers: { "idempotency-key": key } })

    const sectionIds = async (prefix: string) => {
      const result = await killer.query<{ id: string; title: string }>(
        "SELECT id, title FROM sections WHERE community_id = $1 AND title LIKE $2",
        [auth.community, `${prefix}%`]
      )
      return result.rows
    }

    it("answers 503 with Retry-After, never 500, and a retry with the same key never duplicates", async () => {
      const prefix = `Burst ${randomUUID().slice(0, 8)} `
      const requests = Array.from({ length: 50 }, (_, i) => ({ key: randomUUID(), title: `${prefix}${i}` }))
      let unavailable = 0
      let killed = 0
      const all: Array<Reply> = []
      // A burst, with the server's backends killed while it runs; again (same keys) until some request was cut.
      for (let round = 0; round < 6 && (round === 0 || unavailable === 0); round++) {
        let running = true
        const killing = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 5))
          while (running) {
            killed += await killBackends()
            await new Promise((resolve) => setTimeout(resolve, 3))
          }
        })()
        const replies = await Promise.all(requests.map((request) => create(request.key, request.title)))
        running = false
        await killing
        all.push(...replies)
        unavailable += replies.filter((reply) => reply.status === 503).length
        for (const reply of replies) {
          expect([201, 503], JSON.stringify(reply.body)).toContain(reply.status)
          if (reply.status === 503) {
            expect(reply.headers.get("retry-after")).toMatch(/^\d+$/)
            expect(reply.body.success).toBe(false)
          }
        }
        // Every acknowledged write is there.
        const stored = new Set((await sectionIds(prefix)).map((row) => row.id))
        for (const reply of replies.filter((r) => r.status === 201)) expect(stored).toContain(reply.body.data.id)
      }
      expect(killed).toBeGreaterThan(0)
      expect(unavailable, "no request was cut by the killed connections").toBeGreaterThan(0)

      // Retried calmly with the same keys, every request ends 201, and each key made one row.
      await stormOver()
      const finalReplies = await Promise.all(requests.map((request) => create(request.key, request.title)))
      for (const reply of finalReplies) expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      const rows = await sectionIds(prefix)
      expect(rows).toHaveLength(requests.length)
      expect(new Set(rows.map((row) => row.title)).size).toBe(requests.length)
      const ids = new Set(rows.map((row) => row.id))
      for (const reply of finalReplies) expect(ids).toContain(reply.body.data.id)
      // An earlier 201 is replayed, not repeated.
      for (const reply of all.filter((r) => r.status === 201)) expect(ids).toContain(reply.body.data.id)

      // And the server still serves.
      expect((await api.get("/api/sections", auth)).status).toBe(200)
    })
  }
)
