import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Roda } from "../../src/index"

/**
 * Runs a query on the database of this Roda (each `startRoda()` has its own in-memory PGlite, so
 * it must go through that Roda's runtime). Rows come back with camelCase keys.
 */
export const query = <Row extends object = Record<string, unknown>>(
  roda: Roda,
  build: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<Row>, unknown>
): Promise<ReadonlyArray<Row>> => roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, build))

/** Moves every open set-password link of the account into the past; returns the links moved. */
export const expireLinks = (roda: Roda, accountId: string) =>
  query(roda, (sql) =>
    sql`UPDATE password_links SET expires_at = now() - interval '1 minute'
      WHERE account_id = ${accountId} AND used_at IS NULL RETURNING id`)
