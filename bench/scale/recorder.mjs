// Roda in this process (the built @roda/core/node, as a host embeds it), on the seeded database, with a
// node-postgres client class that records every statement it sends: the sweeps count a request's
// statements and replay them under EXPLAIN (ANALYZE, BUFFERS). Jobs do not run here (`runJobs: false`),
// so what a request window records is the request's own work.
import { Effect } from "effect"
import pg from "pg"
import {
  loadRodaEnvironment,
  makeRoda,
  nodePlatform,
  poolOptions,
  postgresClient
} from "../../packages/core/dist/node.js"
import { rodaEnv } from "../harness.mjs"

/** Starts the recording Roda on `databaseUrl`; `recorded` is the list the current window appends to. */
export const startRecordingRoda = async (databaseUrl) => {
  let window = null
  const recording = (base) =>
    class RecordingClient extends base {
      query(...args) {
        const [config, values] = args
        const text = typeof config === "string" ? config : config?.text
        if (window !== null && typeof text === "string") {
          window.push({ text, values: Array.isArray(values) ? values : (config?.values ?? []) })
        }
        return super.query(...args)
      }
    }
  const platform = {
    ...nodePlatform,
    // The seeded database is migrated already: the pool alone, with the recording client.
    database: (options) => {
      const base = poolOptions(options.url, 0, 4)
      return postgresClient({ ...base, Client: recording(base.Client) })
    }
  }
  for (const [name, value] of Object.entries({ ...rodaEnv, DATABASE_URL: databaseUrl })) process.env[name] = value
  const environment = await Effect.runPromise(loadRodaEnvironment)
  const roda = makeRoda({
    database: environment.database,
    options: { ...environment.options, runJobs: false },
    platform
  })
  await roda.ready()
  /** Answers `request` and the statements sent while it ran (to its body's end). */
  const answer = async (request) => {
    const statements = []
    window = statements
    try {
      const response = await roda.handler(request)
      const body = await response.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 5))
      return { status: response.status, body, statements }
    } finally {
      window = null
    }
  }
  return { answer, dispose: () => roda.dispose() }
}

const PLANNABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i
const SKIPPED = /^\s*(BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|END)\b/i

/** Seq Scans and Sorts of more than `limit` rows in an EXPLAIN (FORMAT JSON) plan, and its totals. */
export const planFindings = (plan, limit = 10_000) => {
  const findings = []
  let buffers = 0
  const walk = (node) => {
    const loops = node["Actual Loops"] ?? 1
    buffers += (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0)
    const type = node["Node Type"]
    if (type === "Seq Scan") {
      const rows = ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * loops
      if (rows > limit) findings.push(`Seq Scan on ${node["Relation Name"]} reads ${rows} rows`)
    }
    if (type === "Sort" || type === "Incremental Sort") {
      const input = (node.Plans ?? []).reduce(
        (sum, child) => sum + (child["Actual Rows"] ?? 0) * (child["Actual Loops"] ?? 1),
        0
      )
      if (input > limit) findings.push(`${type} of ${input} rows (${node["Sort Key"]?.join(", ")})`)
    }
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(plan.Plan)
  return { findings, buffers: Math.max(buffers, 0), ms: plan["Execution Time"] ?? 0 }
}

/**
 * Replays a request's statements in order in one transaction that is rolled back: each plannable one
 * under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) (so it runs as it ran, session settings included), the
 * rest as sent. Answers the findings, the slowest statement and the buffers read.
 */
export const explainStatements = async (client, statements) => {
  const findings = []
  let slowest = { ms: 0, text: "" }
  let buffers = 0
  let failures = 0
  await client.query("BEGIN")
  try {
    for (const [index, { text, values }] of statements.entries()) {
      if (SKIPPED.test(text)) continue
      await client.query(`SAVEPOINT s${index}`)
      try {
        if (PLANNABLE.test(text)) {
          const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values)
          const plan = result.rows[0]["QUERY PLAN"][0]
          const found = planFindings(plan)
          findings.push(...found.findings.map((finding) => `${finding} [${oneLine(text).slice(0, 80)}]`))
          buffers += found.buffers
          if (found.ms > slowest.ms) slowest = { ms: found.ms, text: oneLine(text) }
        } else {
          await client.query(text, values)
        }
        await client.query(`RELEASE SAVEPOINT s${index}`)
      } catch {
        failures++
        await client.query(`ROLLBACK TO SAVEPOINT s${index}`)
      }
    }
  } finally {
    await client.query("ROLLBACK")
  }
  return { findings, slowest, buffers, failures }
}

export const oneLine = (text) => text.replace(/\s+/g, " ").trim()

/** A plain connection for the replays. */
export const explainClient = async (databaseUrl) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  client.on("error", () => undefined)
  await client.connect()
  return client
}
