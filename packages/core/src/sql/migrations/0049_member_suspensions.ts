import { ddl } from "./ddl"

/**
 * Suspensions (platform.md "Moderation", issue 56 item 1): a member's profile gains
 * `suspended_until`. Until then the member reads but cannot post, comment, react or take part in
 * events. The column belongs to communities (the membership), so every feature reads it with the
 * caller's membership (`Memberships.callerIn`, `callerRow`) at no extra statement; moderation sets
 * and clears it through the `Memberships` contract and logs each action in `moderation_log`, which
 * gains `until` (a suspension's end) beside the note (why).
 */
export default ddl(
  `ALTER TABLE profiles ADD COLUMN suspended_until timestamptz`,
  `ALTER TABLE moderation_log ADD COLUMN until timestamptz`
)
