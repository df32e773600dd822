import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import type { DataSubject, ErasureStep } from "../privacy/PersonalData"

const decodeOwned = decodeRows(Schema.Struct({ id: Schema.String, name: Schema.String }))

/**
 * Communities' part of an erasure (platform.md "Members' data rights"). Blockers: the live communities
 * the account owns that have another live member (active, not removed): the owner hands them over
 * first. Erasure: a community the account owns alone is deleted (`deleted_at`: nobody is left to run it;
 * its slug and domain become free); every profile of the account, in every community (removed and
 * banned ones too), becomes "Ex-membro", or "Former member" where the community's `settings.language`
 * is `en`, with phone, bio, avatar and tags cleared, and leaves the community (`removed_at`, kept if
 * set: the profile row stays, so posts, comments, orders and certificates keep their reference and
 * show that name; the name search of migration 0003 indexes the column itself). A community's sales
 * e-mail that is the account's address is cleared. Avatars are URLs the member gave, not files of ours:
 * nothing to remove from the blob store. A second run changes nothing.
 */
export const communitiesErasure = Effect.map(SqlClient.SqlClient, (sql): ErasureStep => {
  const blockers = (subject: DataSubject) =>
    sql`SELECT c.id, c.name FROM profiles p JOIN communities c ON c.id = p.community_id
      WHERE p.account_id = ${subject.accountId} AND p.role = 'owner' AND p.removed_at IS NULL
        AND c.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM profiles o WHERE o.community_id = p.community_id AND o.id <> p.id
          AND o.account_id <> ${subject.accountId} AND o.removed_at IS NULL AND o.status = 'active')
      ORDER BY c.name, c.id`.pipe(Effect.flatMap(decodeOwned), Effect.orDie)

  const erase = (subject: DataSubject) =>
    Effect.all([
      // blockers ran first in this transaction: an owned community left has no other live member
      // the blockers' condition again: a member who joined since the check is never deleted with it
      sql`UPDATE communities c SET deleted_at = now(), updated_at = now()
        FROM profiles p
        WHERE p.community_id = c.id AND p.account_id = ${subject.accountId} AND p.role = 'owner'
          AND p.removed_at IS NULL AND c.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM profiles o WHERE o.community_id = p.community_id AND o.id <> p.id
            AND o.account_id <> ${subject.accountId} AND o.removed_at IS NULL AND o.status = 'active')`,
      sql`UPDATE notification_settings s SET sales_email = NULL, updated_at = now()
        FROM profiles p, account_contacts a
        WHERE p.account_id = ${subject.accountId} AND s.community_id = p.community_id
          AND a.id = p.account_id AND lower(s.sales_email) = lower(a.email)`,
      sql`UPDATE profiles p SET
          full_name = CASE WHEN c.settings->>'language' = 'en' THEN 'Former member' ELSE 'Ex-membro' END,
          phone = NULL, bio = NULL, avatar_url = NULL, tags = '{}',
          removed_at = coalesce(p.removed_at, now()), updated_at = now()
        FROM communities c
        WHERE c.id = p.community_id AND p.account_id = ${subject.accountId}
          AND (p.removed_at IS NULL OR p.phone IS NOT NULL OR p.bio IS NOT NULL OR p.avatar_url IS NOT NULL
            OR p.tags <> '{}' OR p.full_name NOT IN ('Ex-membro', 'Former member'))`
    ], { discard: true }).pipe(Effect.orDie)

  return { feature: "communities", blockers, erase }
})
