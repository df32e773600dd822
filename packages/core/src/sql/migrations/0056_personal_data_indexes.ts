import { ddl } from "./ddl"

/**
 * Members' data rights (issue 56, item 3): each file of an export reads a person's rows in keyset pages,
 * one profile at a time, ordered by a key; these indexes serve that order. The authors' indexes of posts
 * and comments (removed ones too, so an erasure finds them all) are new; those of reactions, enrollments
 * and participations by profile gain the page's key in place of the bare `(community_id, profile_id)`
 * ones they replace (same writes, every query of the old ones still served). Charges gain their buyer's.
 */
export default ddl(
  `CREATE INDEX status_posts_author_idx ON status_posts (community_id, author_profile_id, id)`,
  `CREATE INDEX content_posts_author_idx ON content_posts (community_id, author_profile_id, id)`,
  `CREATE INDEX comments_author_idx ON comments (community_id, author_profile_id, id)`,
  `CREATE INDEX reactions_profile_items_idx ON reactions (community_id, profile_id, item_type, item_id)`,
  `DROP INDEX reactions_profile_idx`,
  `CREATE INDEX enrollments_profile_courses_idx ON enrollments (community_id, profile_id, id)`,
  `DROP INDEX enrollments_profile_idx`,
  `CREATE INDEX event_participants_profile_events_idx ON event_participants (community_id, profile_id, event_id)`,
  `DROP INDEX event_participants_profile_idx`,
  `CREATE INDEX charges_buyer_idx ON charges (community_id, profile_id, id)`
)
