import { ConfigProvider, Effect, Exit, Redacted } from "effect"
import { mkdtemp, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../src/config"

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    loadConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

describe("configuration", () => {
  it("defaults to the embedded database and keeps a generated JWT secret in the data folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "roda-config-"))
    const first = await load({ DATA_DIR: dir })
    const second = await load({ DATA_DIR: dir })
    if (!Exit.isSuccess(first) || !Exit.isSuccess(second)) throw new Error("config failed")
    expect(first.value.database).toEqual({ _tag: "Embedded", dataDir: join(dir, "pg") })
    expect(first.value.port).toBe(3000)
    expect(first.value.host).toBe("127.0.0.1")
    expect(first.value.options.publicBaseUrl).toBe("http://localhost:3000")
    const stored = (await readFile(join(dir, "jwt-secret"), "utf8")).trim()
    expect(Redacted.value(first.value.options.jwtSecret)).toBe(stored)
    expect(Redacted.value(second.value.options.jwtSecret)).toBe(stored)
  })

  it("uses PostgreSQL with DATABASE_URL and then requires JWT_SECRET", async () => {
    expect(Exit.isFailure(await load({ DATABASE_URL: "postgres://localhost/x" }))).toBe(true)
    const exit = await load({ DATABASE_URL: "postgres://localhost/x", JWT_SECRET: "s".repeat(40), PORT: "8080" })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.database._tag).toBe("Postgres")
    expect(exit.value.port).toBe(8080)
  })

  it("reads platform operators, lower-cased", async () => {
    const exit = await load({ DATA_DIR: "memory", PLATFORM_ADMIN_EMAILS: " Root@Roda.test, ops@roda.test ," })
    if (!Exit.isSuccess(exit)) throw new Error("config failed")
    expect(exit.value.options.platformAdminEmails).toEqual(["root@roda.test", "ops@roda.test"])
    expect(exit.value.database).toEqual({ _tag: "Embedded", dataDir: "memory" })
  })
})
