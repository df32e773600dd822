import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DataSubject, ErasureStep } from "../privacy/PersonalData"

/**
 * Notifications' part of an erasure: the member's inbox, space follows and preferences are deleted,
 * and so are others' notifications whose subject is the member's profile (their `subject_title` may
 * name them). Notifications others got of the member's acts name only the actor's profile id, so they
 * show the former-member name.
 */
export const notificationsErasure = Effect.map(SqlClient.SqlClient, (sql): ErasureStep => {
  const erase = (subject: DataSubject) => {
    if (subject.profiles.length === 0) return Effect.void
    const communities = sql.in([...new Set(subject.profiles.map((p) => p.communityId))])
    const profiles = sql.in(subject.profiles.map((p) => p.profileId))
    return Effect.all([
      sql`DELETE FROM notifications WHERE community_id IN ${communities} AND recipient_profile_id IN ${profiles}`,
      sql`DELETE FROM notifications
        WHERE community_id IN ${communities} AND subject_type = 'profile' AND subject_id IN ${profiles}`,
      sql`DELETE FROM notification_preferences WHERE community_id IN ${communities} AND profile_id IN ${profiles}`,
      sql`DELETE FROM space_follows WHERE community_id IN ${communities} AND profile_id IN ${profiles}`
    ], { discard: true }).pipe(Effect.orDie)
  }
  return { feature: "notifications", erase }
})
