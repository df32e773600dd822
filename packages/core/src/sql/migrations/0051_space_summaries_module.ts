import { ddl } from "./ddl"

/**
 * The read contract `space_summaries` (structure's spaces) shows each space's module too: a member
 * who joins a community follows its feed spaces (notifications, platform.md "Notifications").
 */
export default ddl(
  `CREATE OR REPLACE VIEW space_summaries AS
    SELECT id, community_id, title, position, posting_policy, module FROM spaces`
)
