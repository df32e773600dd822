import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { loadRodaEnvironment, secret } from "../../node/index"
import { DatabaseLive } from "../../node/sql/Database"
import { withoutStatementTimeout } from "../../src/sql/Database"
import { migrate } from "../../src/sql/migrate"

const env = (extra: Record<string, string>) =>
  Effect.runPromiseExit(
    loadRodaEnvironment.pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(
        new Map(Object.entries({
          DATABASE_URL: "postgres://roda@localhost/roda",
          JWT_SECRET: "a-jwt-secret-that-is-long-enough-for-hs256",
          PAYMENT_GATEWAY: "stripe",
          STRIPE_SECRET_KEY: "sk_test_123",
          STRIPE_WEBHOOK_SECRET: "whsec_test",
          ...extra
        }))
      ))
    )
  )

describe("DATABASE_STATEMENT_TIMEOUT_MS", () => {
  it("defaults to 30 s, takes a number of milliseconds (0 is none) and refuses anything else", async () => {
    const database = async (extra: Record<string, string>) => {
      const exit = await env(extra)
      return Exit.isSuccess(exit) ? exit.value.database : String(Exit.isFailure(exit) && exit.cause)
    }
    expect(await database({})).toMatchObject({ _tag: "Postgres", statementTimeoutMs: 30_000 })
    expect(await database({ DATABASE_STATEMENT_TIMEOUT_MS: "5000" })).toMatchObject({ statementTimeoutMs: 5000 })
    expect(await database({ DATABASE_STATEMENT_TIMEOUT_MS: "0" })).toMatchObject({ statementTimeoutMs: 0 })
    expect(await database({ DATABASE_STATEMENT_TIMEOUT_MS: "-1" })).toContain("0 for none")
    expect(await database({ DATABASE_STATEMENT_TIMEOUT_MS: "soon" })).toContain("DATABASE_STATEMENT_TIMEOUT_MS")
  })
})

const runtime = process.env.DATABASE_URL === undefined ? undefined : ManagedRuntime.make(
  DatabaseLive({ _tag: "Postgres", url: secret(process.env.DATABASE_URL), statementTimeoutMs: 300 }).pipe(Layer.orDie)
)
afterAll(() => runtime?.dispose())

const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => runtime!.runPromiseExit(effect)
const query = (text: string) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(text))

skipWhen(POSTGRES_ONLY).describe("statement_timeout on the pool's connections", () => {
  it(
    "PostgreSQL cancels a statement that runs longer (57014); migrations and withoutStatementTimeout are exempt",
    async () => {
      // Several at once, so more than one pooled connection carries it.
      const shows = await Promise.all(Array.from({ length: 4 }, () => run(query("SHOW statement_timeout"))))
      for (const show of shows) expect(Exit.isSuccess(show) && show.value).toEqual([{ statementTimeout: "300ms" }])
      const slow = await run(query("SELECT pg_sleep(1)"))
      expect(Exit.isFailure(slow)).toBe(true)
      expect(JSON.stringify(slow)).toContain("57014")
      const exempt = await run(
        withoutStatementTimeout(query("SELECT pg_sleep(0.6), current_setting('statement_timeout') AS t"))
      )
      expect(Exit.isSuccess(exempt) && exempt.value).toMatchObject([{ t: "0" }])
      expect(Exit.isSuccess(await run(migrate))).toBe(true)
      // SET LOCAL ended with the transaction: the connection went back to the pool with its timeout.
      const after = await Promise.all(Array.from({ length: 4 }, () => run(query("SHOW statement_timeout"))))
      for (const show of after) expect(Exit.isSuccess(show) && show.value).toEqual([{ statementTimeout: "300ms" }])
    },
    30_000
  )
})
