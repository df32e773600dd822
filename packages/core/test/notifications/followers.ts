import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `count` members of `communityId` following `spaceId`, written with SQL in three statements (a
 * fan-out's size without `count` registrations): ids `md5(<tag>-p-<k>)`, e-mails `<tag>-<k>@<domain>`.
 * Answers their profile ids.
 */
export const seedFollowers = (
  sql: SqlClient.SqlClient,
  { communityId, count, domain, spaceId, tag }: {
    communityId: string
    spaceId: string
    count: number
    tag: string
    domain: string
  }
) =>
  Effect.gen(function*() {
    yield* sql`INSERT INTO accounts (id, email, full_name, password_hash, created_at, updated_at)
      SELECT md5(${tag} || '-a-' || k)::uuid, ${tag} || '-' || k || '@' || ${domain}, 'Seguidor ' || k, NULL, now(), now()
      FROM generate_series(1, ${count}) k`
    yield* sql`INSERT INTO profiles (id, community_id, account_id, role, full_name, created_at, updated_at)
      SELECT md5(${tag} || '-p-' || k)::uuid, ${communityId}, md5(${tag} || '-a-' || k)::uuid, 'member',
        'Seguidor ' || k, now(), now()
      FROM generate_series(1, ${count}) k`
    yield* sql`INSERT INTO space_follows (community_id, space_id, profile_id, created_at)
      SELECT ${communityId}, ${spaceId}, md5(${tag} || '-p-' || k)::uuid, now() - interval '1 minute'
      FROM generate_series(1, ${count}) k`
    const rows = yield* sql<{ id: string }>`SELECT md5(${tag} || '-p-' || k)::uuid::text AS id
      FROM generate_series(1, ${count}) k`
    return rows.map((row) => row.id)
  })
