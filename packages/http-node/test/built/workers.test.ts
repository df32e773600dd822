import { execFileSync } from "node:child_process"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuiltServer, runBuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { startSmtp } from "../../../../testing/smtp"

/**
 * The built `roda-server` with `WORKERS=2` on PostgreSQL (issue 58): two processes share the port
 * under one primary, their pools together stay within `PGPOOL_MAX`, a worker that dies is started
 * again, SIGTERM stops them all, and durable work (here the e-mail outbox) is done once under load.
 * On the embedded database, `WORKERS=2` is refused at start.
 */
const postgres = process.env.DATABASE_URL

/** The pids of the primary's children (its workers). */
const workersOf = (pid: number) =>
  execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number)

const waitFor = async <A>(what: string, probe: () => Promise<A | undefined> | A | undefined, ms = 30_000) => {
  const until = Date.now() + ms
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.runIf(postgres !== undefined)("two workers on PostgreSQL", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let server: BuiltServer
  let database: pg.Client

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startBuiltServer({
      WORKERS: "2",
      PGPOOL_MAX: "4",
      SMTP_URL: smtp.url,
      RATE_LIMITS: "{\"register\":0}"
    })
    database = new pg.Client({ connectionString: postgres })
    await database.connect()
  }, 120_000)
  afterAll(async () => {
    await database?.end()
    await server?.stop()
    await smtp?.close()
  })

  it("serves the port from two worker processes whose pools stay within PGPOOL_MAX", async () => {
    const workers = await waitFor("two workers", () => {
      const pids = workersOf(server.process.pid!)
      return pids.length === 2 ? pids : undefined
    })
    expect(new Set(workers).size).toBe(2)
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${server.base}/api/openapi.json`).then((reply) => reply.status))
    )
    expect(answers.every((status) => status === 200)).toBe(true)
    const { rows } = await database.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'roda'"
    )
    expect(Number(rows[0]!.n)).toBeGreaterThan(0)
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(4)
  })

  it("does each durable job once while both workers serve a burst (60 sign-ups, 60 e-mails)", async () => {
    const run = crypto.randomUUID().slice(0, 8)
    const emails = Array.from({ length: 60 }, (_, i) => `w${i}-${run}@example.com`)
    const replies = await Promise.all(emails.map((email) =>
      fetch(`${server.base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "Secret123", fullName: "Worker Test" })
      }).then((reply) => reply.status)
    ))
    expect(replies.every((status) => status === 201), JSON.stringify(replies)).toBe(true)
    await waitFor("the 60 e-mails", () => {
      const sent = smtp.received.filter((mail) => mail.to.some((to) => to.endsWith(`-${run}@example.com`)))
      return sent.length >= 60 ? sent : undefined
    })
    // a moment for a duplicate to arrive, if a job ran twice
    await new Promise((resolve) => setTimeout(resolve, 1500))
    for (const email of emails) {
      expect(smtp.received.filter((mail) => mail.to.includes(email)), email).toHaveLength(1)
    }
  })

  it("starts a worker again when one dies, and keeps serving", async () => {
    const [victim] = workersOf(server.process.pid!)
    process.kill(victim!, "SIGKILL")
    const replaced = await waitFor("a new worker", () => {
      const pids = workersOf(server.process.pid!)
      return pids.length === 2 && !pids.includes(victim!) ? pids : undefined
    })
    expect(replaced).not.toContain(victim)
    await waitFor("the new worker's answers", async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`${server.base}/readyz`).then((reply) => reply.status, () => 0))
      )
      return statuses.every((status) => status === 200) ? true : undefined
    })
  })

  it("stops every worker on SIGTERM and exits 0", async () => {
    const pids = workersOf(server.process.pid!)
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)))
    server.process.kill("SIGTERM")
    expect(await exited).toBe(0)
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
  })
})

describe("WORKERS refused where it cannot work", () => {
  it("refuses two workers on the embedded database", async () => {
    const run = await runBuiltServer({ DATA_DIR: "memory", WORKERS: "2", LOG_LEVEL: "warn" })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/^WORKERS: 2 processes cannot share the embedded database .* — set DATABASE_URL/m)
  })

  it("refuses more workers than PGPOOL_MAX connections, and a WORKERS that is no number", async () => {
    const run = await runBuiltServer({ DATA_DIR: "memory", WORKERS: "zero", PGPOOL_MAX: "0", LOG_LEVEL: "warn" })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/^WORKERS: zero is not a whole number of processes from 1/m)
    expect(run.stderr).toMatch(/^PGPOOL_MAX: 0 is not a whole number of connections from 1/m)
  })
})
