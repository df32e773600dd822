import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DataSubject, ErasureStep } from "../privacy/PersonalData"

/**
 * Social's part of an erasure. With `deleteContent: true` the member's status posts, content posts and
 * comments are deleted as the member deleting them would (soft delete, `deleted_at`: out of feeds,
 * search and counts, which are counted from live rows; a deleted comment takes its replies along, as
 * `Comments.remove` does), and their reactions are removed. Otherwise everything stays: posts and
 * comments keep only the author's profile id, so they show the profile's former-member name (no copy
 * of the name is stored with them, in search or in notifications). Mentions of the member in others'
 * posts stay (they name the profile). Deleted already: left as it is (a second run changes nothing).
 */
export const socialErasure = Effect.map(SqlClient.SqlClient, (sql): ErasureStep => {
  const erase = (subject: DataSubject, options: { readonly deleteContent: boolean }) => {
    if (!options.deleteContent || subject.profiles.length === 0) return Effect.void
    const communities = sql.in([...new Set(subject.profiles.map((p) => p.communityId))])
    const profiles = sql.in(subject.profiles.map((p) => p.profileId))
    return Effect.all([
      sql`UPDATE comments SET deleted_at = now()
        WHERE community_id IN ${communities} AND deleted_at IS NULL
          AND (author_profile_id IN ${profiles} OR parent_id IN (
            SELECT id FROM comments WHERE community_id IN ${communities} AND author_profile_id IN ${profiles}))`,
      sql`UPDATE status_posts SET deleted_at = now()
        WHERE community_id IN ${communities} AND author_profile_id IN ${profiles} AND deleted_at IS NULL`,
      sql`UPDATE content_posts SET deleted_at = now()
        WHERE community_id IN ${communities} AND author_profile_id IN ${profiles} AND deleted_at IS NULL`,
      sql`DELETE FROM reactions WHERE community_id IN ${communities} AND profile_id IN ${profiles}`
    ], { discard: true }).pipe(Effect.orDie)
  }
  return { feature: "social", erase }
})
