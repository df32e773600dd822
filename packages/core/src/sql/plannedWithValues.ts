import type { SqlClient } from "@effect/sql"

/**
 * The comment that keeps a statement unnamed in both drivers (`HotTexts.PLANNED_WITH_VALUES` of
 * `@roda/sql-pglite`, kept equal by a test): PostgreSQL plans each execution with its values. For a
 * statement whose best plan depends on them, such as a LIKE pattern's.
 */
export const PLANNED_WITH_VALUES = "/* planned with its values */"

/** The comment as a fragment, to end such a statement with. */
export const plannedWithValues = (sql: SqlClient.SqlClient) => sql.literal(PLANNED_WITH_VALUES)
