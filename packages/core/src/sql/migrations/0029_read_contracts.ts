import { ddl } from "./ddl"

/**
 * Read contracts between features (the walls of eslint.config.mjs, for tables): a feature reads
 * what another feature owns only through a view the owner publishes here, never its tables. Each
 * view is a projection of one table of its owner, with no filter and no join, so PostgreSQL inlines
 * it: the readers keep their own conditions (community, ids, `deleted_at`) and their plans use the
 * owner's indexes as before. Nobody writes through a view. Who owns which table and view is declared
 * in `sql/ownership.ts`, and `test/unit/sqlWalls.test.ts` checks the SQL of every feature against it.
 * Phone numbers are in no view; e-mail addresses only in `account_contacts` (receipts, notices).
 *
 * A later migration that changes the type of a column shown here, or drops it, recreates the view.
 */
export default ddl(
  // identity
  /** Who an account is and how to reach it: for receipts, notices and the caller of a request. */
  `CREATE VIEW account_contacts AS
    SELECT id, email, full_name, email_verified_at, created_at FROM accounts`,
  // communities
  /** A member as others show and address them (no phone, bio or tags). */
  `CREATE VIEW member_cards AS
    SELECT id, community_id, account_id, role, status, full_name, avatar_url, removed_at FROM profiles`,
  /** A community's name, whether it is deleted, and whether anonymous visitors see its status posts. */
  `CREATE VIEW community_summaries AS
    SELECT id, name, deleted_at, coalesce((settings->>'publicStatusPosts')::boolean, false) AS public_status_posts
    FROM communities`,
  // structure
  /** A space's title, place and who may post in it. */
  `CREATE VIEW space_summaries AS
    SELECT id, community_id, title, position, posting_policy FROM spaces`,
  /** The products and plans whose buyers a space lets in. */
  `CREATE VIEW space_grants AS
    SELECT id, community_id, title, position, access_product_ids, access_subscription_group_ids FROM spaces`,
  // courses
  /** A course as an item of feeds, search and reactions. */
  `CREATE VIEW course_items AS
    SELECT id, community_id, space_id, title, description, status, published_at, created_by FROM courses`,
  /** The titles of lessons (search). */
  `CREATE VIEW lesson_titles AS
    SELECT id, community_id, course_id, title FROM lessons`,
  // events
  /** An event as an item of feeds, search and reactions. */
  `CREATE VIEW event_items AS
    SELECT id, community_id, space_id, title, created_at, deleted_at FROM events`,
  // social
  /** A status post as an item of the feed. */
  `CREATE VIEW status_post_items AS
    SELECT id, community_id, author_profile_id, body, created_at, deleted_at FROM status_posts`,
  /** A content post as an item of the feed and search. */
  `CREATE VIEW content_post_items AS
    SELECT id, community_id, space_id, author_profile_id, title, body, created_at, deleted_at FROM content_posts`,
  /** Who commented on which item, when (counts and rankings, not the text). */
  `CREATE VIEW comment_activity AS
    SELECT community_id, item_type, item_id, author_profile_id, created_at, deleted_at FROM comments`,
  /** Who reacted to which item, how and when. */
  `CREATE VIEW reaction_activity AS
    SELECT community_id, item_type, item_id, type, profile_id, created_at FROM reactions`,
  // commerce/catalogue
  /** What a product is and costs. */
  `CREATE VIEW product_summaries AS
    SELECT id, community_id, title, price, currency, billing_interval, status, deleted_at FROM products`,
  /** Which products a plan offers, as billing option or add-on. */
  `CREATE VIEW plan_products AS
    SELECT community_id, group_id, product_id, kind FROM subscription_group_products`,
  // commerce/checkout
  /** The seller account of a community at each gateway. */
  `CREATE VIEW gateway_sellers AS
    SELECT gateway, community_id, account_id FROM gateway_accounts`
)
