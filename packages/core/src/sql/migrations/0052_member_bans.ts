import { ddl } from "./ddl"

/**
 * Bans (platform.md "Moderation", issue 56 item 1): a banned member's profile is removed
 * (`removed_at`, as a removal by staff) and gains `banned_at` and `ban_reason`; while `banned_at`
 * is set the account cannot be invited, added or join again (communities' `MemberJoining` refuses
 * it). The columns belong to communities; moderation sets and clears them through `Memberships`.
 */
export default ddl(
  `ALTER TABLE profiles ADD COLUMN banned_at timestamptz`,
  `ALTER TABLE profiles ADD COLUMN ban_reason text`
)
