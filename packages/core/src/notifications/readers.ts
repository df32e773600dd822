import type { SqlClient } from "@effect/sql"
import { communityIdOf } from "../domain/Ids"
import type { Access } from "../structure/Access"

/** The spaces each member `m` of a notifying statement may read (`Access.readableSpacesOf`), as a subquery. */
export const readersOf = (access: Access["Type"], sql: SqlClient.SqlClient) => (communityId: string) =>
  access.readableSpacesOf(communityIdOf(communityId), { profileId: sql`m.id`, role: sql`m.role` })
