import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ErasureStep } from "../privacy/PersonalData"

/** API keys' part of an erasure: every key the account created is revoked (rows kept for the record). */
export const apiKeysErasure = Effect.map(SqlClient.SqlClient, (sql): ErasureStep => ({
  feature: "apiKeys",
  erase: (subject) =>
    sql`UPDATE api_keys SET revoked_at = now() WHERE created_by = ${subject.accountId} AND revoked_at IS NULL`.pipe(
      Effect.asVoid,
      Effect.orDie
    )
}))
