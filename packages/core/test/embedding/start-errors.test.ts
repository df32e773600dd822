import { describe, expect, it } from "vitest"
import { answeringServer } from "../../../../testing/databases"
import { skipWhen } from "../../../../testing/skips"
import { defaultOptions, makeRoda, RodaStartError, secret } from "../../node/index"

const jwtSecret = secret("a-test-secret-that-is-long-enough-123")

/** ready() on a PostgreSQL URL: the error it rejects with. */
const failureOf = async (url: string) => {
  const roda = makeRoda({ database: { _tag: "Postgres", url: secret(url) }, options: defaultOptions({ jwtSecret }) })
  try {
    await roda.ready()
    return undefined
  } catch (error) {
    return error
  } finally {
    await roda.dispose()
  }
}

/** A server that answers, for the last two: the run's, else a local one (in the embedded run). */
const server = await answeringServer()

describe("ready() says why the database cannot be used, naming the target without its password", () => {
  it("connection refused", async () => {
    const error = await failureOf("postgres://ana:hunter2@127.0.0.1:1/roda")
    expect(error).toBeInstanceOf(RodaStartError)
    expect((error as Error).message).toBe(
      "cannot connect to PostgreSQL at postgres://ana@127.0.0.1:1/roda: connection refused (is PostgreSQL running and listening there?)"
    )
  })

  it("unknown host", async () => {
    const error = (await failureOf("postgres://ana:hunter2@no-such-host.invalid:5432/roda")) as Error
    expect(error.message).toBe(
      "cannot connect to PostgreSQL at postgres://ana@no-such-host.invalid:5432/roda: unknown host"
    )
  })

  skipWhen(server === undefined ? "no PostgreSQL server answers" : undefined).it(
    "unknown database and authentication failed",
    async () => {
      const unknownDatabase = new URL(server!)
      unknownDatabase.pathname = "/roda_no_such_database"
      const missing = (await failureOf(unknownDatabase.toString())) as Error
      expect(missing.message).toMatch(/: unknown database \(database "roda_no_such_database" does not exist\)$/)

      const stranger = new URL(server!)
      stranger.username = "roda_no_such_role"
      stranger.password = "secret-password"
      const refused = (await failureOf(stranger.toString())) as Error
      expect(refused.message).toMatch(/: authentication failed \(/)
      expect(refused.message).not.toContain("secret-password")
    }
  )
})
