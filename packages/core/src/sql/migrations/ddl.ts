import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A migration made of DDL statements, run one after another. */
export const ddl = (...statements: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
  )
