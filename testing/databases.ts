/**
 * The PostgreSQL databases of a test run. A run migrates one template database, and every test file
 * gets a database of its own cloned from it (`CREATE DATABASE … TEMPLATE`), so files run in parallel
 * and nothing one does (its rows, its job runner, its clock) reaches another. Every database of a run
 * is named `roda_run_<pid of the run>_…`: the run drops them when it ends, and the next run drops those
 * of a run that was killed.
 */
import pg from "pg"

const PREFIX = "roda_run_"

/** The names of run `runId`'s databases. */
export const templateName = (runId: number) => `${PREFIX}${runId}_template`
export const fileDatabaseName = (template: string, id: string) => template.replace(/_template$/, `_${id}`)

/** `url` with its database replaced by `name`. */
export const withDatabase = (url: string, name: string) => {
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}

/** Runs `use` on a connection to the server's `postgres` database (where databases are made and dropped). */
export const onServer = async <A>(serverUrl: string, use: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") })
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

export const createDatabase = (serverUrl: string, name: string, template?: string) =>
  onServer(
    serverUrl,
    (client) => client.query(`CREATE DATABASE "${name}"${template === undefined ? "" : ` TEMPLATE "${template}"`}`)
  )

export const dropDatabase = (serverUrl: string, name: string) =>
  onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Drops the databases of run `runId`, and those of runs whose process is gone (killed runs). */
export const dropRunDatabases = (serverUrl: string, runId: number) =>
  onServer(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [PREFIX]
    )
    for (const { datname } of rows) {
      const pid = Number(/^roda_run_(\d+)_/.exec(datname)?.[1])
      if (pid === runId || (Number.isInteger(pid) && !alive(pid))) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
      }
    }
  })

/** The PostgreSQL server of the run (DATABASE_URL), else the usual local one when it answers (3 s at most). */
export const answeringServer = async (): Promise<string | undefined> => {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  client.on("error", () => undefined)
  try {
    await client.connect()
    await client.query("SELECT 1")
    return url
  } catch {
    return undefined
  } finally {
    await client.end().catch(() => undefined)
  }
}
