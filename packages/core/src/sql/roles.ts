import type { SqlClient, Statement } from "@effect/sql"
import { staffRoles } from "../domain/Role"

/** Whether a role read in SQL (null for no member) is staff's, as `isStaff`: never null. */
export const isStaffSql = (sql: SqlClient.SqlClient, role: Statement.Fragment) =>
  sql`COALESCE(${role} IN ${sql.in(staffRoles)}, false)`
