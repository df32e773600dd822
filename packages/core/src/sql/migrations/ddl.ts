import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const texts = new WeakMap<object, ReadonlyArray<string>>()

/** A migration made of DDL statements, run one after another. */
export const ddl = (...statements: ReadonlyArray<string>) => {
  const migration = Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
  )
  texts.set(migration, statements)
  return migration
}

/** The statements of a `ddl` migration (what the embedded template's key is made of). */
export const statementsOf = (migration: object): ReadonlyArray<string> | undefined => texts.get(migration)
