import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { TimeZone } from "../domain/Fields"
import { decodeRows } from "../domain/Rows"
import { CommunityTimeZone } from "./CommunityTimeZone"

const decodeZones = decodeRows(Schema.Struct({ timeZone: Schema.NullOr(Schema.String) }))
/** A stored value that is no longer a time zone the runtime knows is read as none (UTC), never a 500. */
const asTimeZone = Schema.decodeUnknownOption(TimeZone)

/** `CommunityTimeZone` over the communities' settings (read only). */
export const CommunityTimeZoneLive = Layer.effect(
  CommunityTimeZone,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    of: (communityId) =>
      sql`SELECT settings->>'timezone' AS time_zone FROM communities WHERE id = ${communityId}`.pipe(
        Effect.flatMap(decodeZones),
        Effect.map((rows) => Option.flatMap(Option.fromNullable(rows[0]?.timeZone), asTimeZone)),
        Effect.orDie
      )
  }))
)
