// Exits 0 when a PostgreSQL server accepts connections at DATABASE_URL or 127.0.0.1:5432.
import pg from "pg"

const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  connectionTimeoutMillis: 3000
})
try {
  await client.connect()
  await client.query("SELECT 1")
  await client.end()
} catch {
  process.exit(1)
}
