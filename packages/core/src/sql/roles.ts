import type { SqlClient, Statement } from "@effect/sql"
import { staffRoles } from "../domain/Role"

// The roles are the schema's fixed literals, written into the text rather than bound: a statement
// that tests them twice then carries no parameters for them.
const staffRoleList = `(${staffRoles.map((role) => `'${role}'`).join(", ")})`

/** Whether a role read in SQL (null for no member) is staff's, as `isStaff`: never null. */
export const isStaffSql = (sql: SqlClient.SqlClient, role: Statement.Fragment) =>
  sql`COALESCE(${role} IN ${sql.literal(staffRoleList)}, false)`
