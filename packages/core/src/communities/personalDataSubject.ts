import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import type { DataSubject } from "../privacy/PersonalData"

const decodeProfiles = decodeRows(Schema.Struct({ communityId: Schema.String, profileId: Schema.String }))

/**
 * The subject of a data-rights request (`PersonalData.subjectOf`): every profile the account has or
 * had, removed and banned ones included (index `profiles_account_any_idx`, migration 0054).
 */
export const personalDataSubject = Effect.map(SqlClient.SqlClient, (sql) => (accountId: string) =>
  sql`
    SELECT community_id, id AS profile_id FROM profiles WHERE account_id = ${accountId} ORDER BY community_id`.pipe(
    Effect.flatMap(decodeProfiles),
    Effect.map((profiles): DataSubject => ({ accountId, profiles })),
    Effect.orDie
  ))
