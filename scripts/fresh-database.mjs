// Creates an empty PostgreSQL database for a test run and prints its URL.
// Usage: node scripts/fresh-database.mjs [server-url]   (drop with: node scripts/fresh-database.mjs --drop URL)
import pg from "pg"

const [flag, target] = process.argv.slice(2)
const dropping = flag === "--drop"
const serverUrl = new URL(
  dropping ? target : (flag ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres")
)
const name = dropping ? serverUrl.pathname.slice(1) : `roda_test_${Date.now()}_${process.pid}`
const admin = new URL(serverUrl)
admin.pathname = "/postgres"

const client = new pg.Client({ connectionString: admin.toString() })
await client.connect()
try {
  if (dropping) {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  } else {
    await client.query(`CREATE DATABASE "${name}"`)
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    console.log(url.toString())
  }
} finally {
  await client.end()
}
