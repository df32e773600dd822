import { type DatabaseOptions, defaultOptions, type RodaOptions, secret } from "@roda/core"
import { Config, Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly database: DatabaseOptions
  readonly options: RodaOptions
}

/**
 * In embedded mode the JWT secret is generated once and kept in the data folder (beside the
 * database in `pg/`), so tokens survive restarts; with `DATA_DIR=memory` it lives as long as the process.
 */
const embeddedSecret = (dataDir: string) =>
  Effect.promise(async () => {
    if (dataDir === "memory") return randomBytes(48).toString("base64url")
    await mkdir(dataDir, { recursive: true })
    const file = join(dataDir, "jwt-secret")
    const existing = await readFile(file, "utf8").catch(() => undefined)
    if (existing?.trim()) return existing.trim()
    const created = randomBytes(48).toString("base64url")
    await writeFile(file, created, { mode: 0o600 })
    return created
  })

/** The environment of conventions.md, read once at start-up. */
export const loadConfig = Effect.gen(function*() {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
  const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  const databaseUrl = yield* Config.option(Config.redacted("DATABASE_URL"))
  const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault("./.roda/data"))
  const jwtSecret = yield* Config.option(Config.redacted("JWT_SECRET"))
  const publicBaseUrl = yield* Config.string("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const admins = yield* Config.string("PLATFORM_ADMIN_EMAILS").pipe(Config.withDefault(""))
  const smtpUrl = yield* Config.option(Config.string("SMTP_URL"))

  const database: DatabaseOptions = Option.isSome(databaseUrl)
    ? { _tag: "Postgres", url: databaseUrl.value }
    : { _tag: "Embedded", dataDir: dataDir === "memory" ? "memory" : join(dataDir, "pg") }
  const resolvedSecret = Option.isSome(jwtSecret)
    ? jwtSecret.value
    : database._tag === "Postgres"
    ? yield* Effect.dieMessage("JWT_SECRET is required when DATABASE_URL is set")
    : secret(yield* embeddedSecret(dataDir))
  if (Redacted.value(resolvedSecret).length < 32) {
    return yield* Effect.dieMessage("JWT_SECRET must be at least 32 characters long")
  }

  return {
    port,
    host,
    database,
    options: defaultOptions({
      jwtSecret: resolvedSecret,
      publicBaseUrl,
      platformAdminEmails: admins.split(",").map((email) => email.trim().toLowerCase()).filter(Boolean),
      smtpUrl: Option.getOrUndefined(smtpUrl)
    })
  } satisfies ServerConfig
})
