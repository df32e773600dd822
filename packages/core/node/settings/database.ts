import { Redacted } from "effect"
import { accessSync, constants, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import pg from "pg"
import { connectFailure } from "../../src/sql/connectError"
import { DEFAULT_DATA_DIR } from "../dataDir"
import { type CheckContext, type Env, problem, type SettingCheck } from "./checks"

const isPostgresUrl = (value: string) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol)

/** How long the start-up check waits for PostgreSQL to answer. */
const CONNECT_TIMEOUT_MS = 10_000

/** Connects once and hangs up: the reason it could not, or `undefined`. */
const connectProblem = async (url: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  client.on("error", () => undefined)
  try {
    await client.connect()
    return undefined
  } catch (cause) {
    return connectFailure(Redacted.make(url), cause)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** `DATABASE_URL`: a postgres:// URL (its password never printed) that answers when the program starts. */
export const databaseUrlCheck: SettingCheck = {
  variables: ["DATABASE_URL"],
  check: async ({ DATABASE_URL: url }, context) => {
    if (url === undefined) return []
    if (!isPostgresUrl(url.trim())) {
      return [problem(
        "DATABASE_URL",
        "is not a postgres:// URL",
        "set it to postgres://user:password@host:5432/database, or unset it for the embedded database in DATA_DIR"
      )]
    }
    const failure = context.connect ? await connectProblem(url.trim()) : undefined
    return failure === undefined ? [] : [problem(
      "DATABASE_URL",
      failure,
      "check its host, port, database, user and password, and that this machine may connect"
    )]
  }
}

const errorCode = (error: unknown) => (error as { code?: string }).code ?? String(error)

/** The nearest folder of `path` (or itself) that exists. */
const nearestExisting = (path: string): string => {
  try {
    statSync(path)
    return path
  } catch {
    const parent = dirname(path)
    return parent === path ? path : nearestExisting(parent)
  }
}

/** Why this process cannot write in the folder `path`, or `undefined`. */
const unwritable = (path: string) => {
  try {
    if (!statSync(path).isDirectory()) return `${path} is a file, not a folder`
    accessSync(path, constants.W_OK | constants.X_OK)
    return undefined
  } catch (error) {
    return `${path} is not writable by this user (${errorCode(error)})`
  }
}

const dataDirProblems = (setting: string | undefined, context: CheckContext) => {
  if (setting?.trim() === "") {
    return [problem("DATA_DIR", "is empty", `set a folder (default ${DEFAULT_DATA_DIR}) or memory`)]
  }
  const folder = resolve(setting ?? DEFAULT_DATA_DIR)
  const existing = nearestExisting(folder)
  if (existing !== folder && context.missingDataDir === "refuse") {
    return [problem(
      "DATA_DIR",
      `${folder} does not exist`,
      "check the path (a typo would open a new, empty database); only the server (roda-server, roda serve) creates it, on its first start"
    )]
  }
  const why = unwritable(existing)
  if (why === undefined) return []
  return [problem(
    "DATA_DIR",
    existing === folder ? why : `${folder} cannot be created: ${why}`,
    "choose a folder this user may write in, or give it to this user (chown, chmod u+w)"
  )]
}

/** `DATA_DIR`, for the embedded database (no `DATABASE_URL`): a folder this process may write in. */
export const dataDirCheck: SettingCheck = {
  variables: ["DATABASE_URL", "DATA_DIR"],
  check: (env: Env, context) =>
    env.DATABASE_URL !== undefined || env.DATA_DIR === "memory" ? [] : dataDirProblems(env.DATA_DIR, context)
}

/** `DATABASE_STATEMENT_TIMEOUT_MS`: a whole number of milliseconds, 0 for none. */
export const statementTimeoutCheck: SettingCheck = {
  variables: ["DATABASE_STATEMENT_TIMEOUT_MS"],
  check: ({ DATABASE_STATEMENT_TIMEOUT_MS: value }) =>
    value === undefined || /^\d+$/.test(value.trim()) ? [] : [problem(
      "DATABASE_STATEMENT_TIMEOUT_MS",
      `${value} is not a whole number of milliseconds`,
      "set how long a statement may run in milliseconds, e.g. 30000, or 0 for none"
    )]
}

/** The PostgreSQL connections of a process's pool unless `PGPOOL_MAX` says (node-postgres' default). */
export const DEFAULT_POOL_MAX = 10

/** `PGPOOL_MAX`: how many PostgreSQL connections the server may hold (all its workers together), at least 1. */
export const poolMaxCheck: SettingCheck = {
  variables: ["PGPOOL_MAX"],
  check: ({ PGPOOL_MAX: value }) =>
    value === undefined || /^[1-9]\d{0,4}$/.test(value.trim()) ? [] : [problem(
      "PGPOOL_MAX",
      `${value} is not a whole number of connections from 1`,
      `set how many PostgreSQL connections the server may open, e.g. ${DEFAULT_POOL_MAX}, or unset it`
    )]
}
