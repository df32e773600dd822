import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows, firstRow } from "../domain/Rows"

export const ApiKeyRow = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(Schema.String),
  createdBy: Schema.String,
  createdAt: Schema.DateFromSelf,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type ApiKeyRow = typeof ApiKeyRow.Type

const decodeKeys = decodeRows(ApiKeyRow)
const firstKey = firstRow(ApiKeyRow)

export interface NewApiKey {
  readonly id: string
  readonly communityId: string
  readonly name: string
  readonly prefix: string
  readonly keyHash: string
  readonly scopes: ReadonlyArray<string>
  readonly createdBy: string
  readonly createdAt: Date
  readonly expiresAt: Date | null
}

/** SQL of the API keys (their own table only). */
export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("@roda/core/ApiKeysRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, community_id, name, prefix, scopes, created_by, created_at, last_used_at,
      expires_at, revoked_at`

    return {
      insert: (row: NewApiKey) =>
        sql`INSERT INTO api_keys (id, community_id, name, prefix, key_hash, scopes, created_by, created_at, expires_at)
          VALUES (${row.id}, ${row.communityId}, ${row.name}, ${row.prefix}, ${row.keyHash},
            ${JSON.stringify(row.scopes)}::jsonb, ${row.createdBy}, ${row.createdAt}, ${row.expiresAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** The community's keys, newest first, after `before` (keyset on the time-ordered id). */
      list: (communityId: string, before: string | undefined, limit: number) =>
        sql`SELECT ${columns} FROM api_keys WHERE community_id = ${communityId}
          ${before === undefined ? sql`` : sql`AND id < ${before}`}
          ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeKeys), Effect.orDie),
      find: (communityId: string, id: string) =>
        sql`SELECT ${columns} FROM api_keys WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(firstKey),
          Effect.orDie
        ),
      /** Revokes the key unless it already is; the key as it is now. */
      revoke: (communityId: string, id: string, at: Date) =>
        sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at})
          WHERE community_id = ${communityId} AND id = ${id} RETURNING ${columns}`.pipe(
          Effect.flatMap(firstKey),
          Effect.orDie
        ),
      /** The live key with this hash: not revoked, not expired at `at`. */
      live: (keyHash: string, at: Date) =>
        sql`SELECT ${columns} FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL
          AND (expires_at IS NULL OR expires_at > ${at})`.pipe(Effect.flatMap(firstKey), Effect.orDie),
      touch: (id: string, at: Date) =>
        sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
