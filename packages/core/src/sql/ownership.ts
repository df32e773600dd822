/**
 * Who owns what in the database: every table and view of the public schema, by the folder of
 * packages/core/src whose code may name it (a feature, as in eslint.config.mjs, or a kernel: `app`,
 * `platform`, `sql`). Features meet only through documented contracts, never through another
 * feature's tables or Repo: a folder's SQL names only its own tables, and reads what others own
 * through the views they publish (migration 0029, one projection of one owner's table each). Views
 * are read by anyone and written by nobody. The migrations (`sql/migrations/`) create everything.
 *
 * Checked by test/unit/sqlWalls.test.ts: the SQL of every folder against this map, and a migrated
 * database against it (a new table or view fails the test until it is declared here).
 */

export type Owner =
  | "identity"
  | "communities"
  | "structure"
  | "courses"
  | "events"
  | "feed"
  | "social"
  | "commerce/catalogue"
  | "commerce/checkout"
  | "commerce/coupons"
  | "commerce/subscriptions"
  | "money/accounts"
  | "money/ledger"
  | "money/payouts"
  | "certificates"
  | "call4papers"
  | "oauth"
  | "audit"
  | "apiKeys"
  | "webhooks"
  | "notifications"
  | "moderation"
  | "privacy"
  | "app"
  | "platform"
  | "sql"

/** Each table, by the folder that writes it and alone reads it. */
export const tableOwners: Readonly<Record<string, Owner>> = {
  // identity
  accounts: "identity",
  password_links: "identity",
  account_email_conflicts: "identity",
  login_failures: "identity",
  auth_sessions: "identity",
  // communities
  communities: "communities",
  profiles: "communities",
  tag_colors: "communities",
  profile_tag_counts: "communities",
  notification_settings: "communities",
  // structure
  sections: "structure",
  spaces: "structure",
  entitlements: "structure",
  // courses
  courses: "courses",
  course_modules: "courses",
  lessons: "courses",
  enrollments: "courses",
  lesson_progress: "courses",
  // events
  events: "events",
  event_participants: "events",
  event_notices: "events",
  // social
  status_posts: "social",
  content_posts: "social",
  comments: "social",
  reactions: "social",
  mentions: "social",
  // feed
  pins: "feed",
  // commerce
  products: "commerce/catalogue",
  subscription_groups: "commerce/catalogue",
  subscription_group_products: "commerce/catalogue",
  downsell_offers: "commerce/catalogue",
  pricing_tiers: "commerce/catalogue",
  charges: "commerce/checkout",
  purchases: "commerce/checkout",
  refunds: "commerce/checkout",
  idempotency_keys: "commerce/checkout",
  gateway_events: "commerce/checkout",
  gateway_accounts: "commerce/checkout",
  disputes: "commerce/checkout",
  coupons: "commerce/coupons",
  coupon_products: "commerce/coupons",
  coupon_redemptions: "commerce/coupons",
  subscriptions: "commerce/subscriptions",
  subscription_add_ons: "commerce/subscriptions",
  subscription_pauses: "commerce/subscriptions",
  subscription_billings: "commerce/subscriptions",
  subscription_payment_links: "commerce/subscriptions",
  subscription_refunds: "commerce/subscriptions",
  subscription_request_keys: "commerce/subscriptions",
  // money
  business_information: "money/accounts",
  payout_settings: "money/accounts",
  fee_overrides: "money/ledger",
  ledger_transactions: "money/ledger",
  ledger_entries: "money/ledger",
  ledger_balances: "money/ledger",
  ledger_releases: "money/ledger",
  payouts: "money/payouts",
  // certificates
  certificate_space_rules: "certificates",
  certificate_templates: "certificates",
  certificate_batches: "certificates",
  certificates: "certificates",
  certificate_issuer_keys: "certificates",
  // call4papers
  call4papers_spaces: "call4papers",
  call4papers_calls: "call4papers",
  call4papers_tracks: "call4papers",
  call4papers_event_dates: "call4papers",
  call4papers_owners: "call4papers",
  call4papers_track_reviewers: "call4papers",
  call4papers_submissions: "call4papers",
  call4papers_submission_versions: "call4papers",
  call4papers_submission_speakers: "call4papers",
  call4papers_reviews: "call4papers",
  call4papers_votes: "call4papers",
  call4papers_offers: "call4papers",
  call4papers_speaker_invitations: "call4papers",
  // oauth
  oauth_clients: "oauth",
  oauth_authorization_requests: "oauth",
  oauth_connections: "oauth",
  oauth_codes: "oauth",
  oauth_tokens: "oauth",
  oauth_registration_windows: "oauth",
  mcp_audit: "oauth",
  // audit
  operator_audit: "audit",
  // API keys
  api_keys: "apiKeys",
  // webhooks
  webhook_endpoints: "webhooks",
  webhook_events: "webhooks",
  webhook_deliveries: "webhooks",
  // notifications
  notifications: "notifications",
  notification_preferences: "notifications",
  space_follows: "notifications",
  // moderation
  moderation_cases: "moderation",
  moderation_reports: "moderation",
  moderation_log: "moderation",
  // privacy (members' data rights)
  data_exports: "privacy",
  // kernels
  request_idempotency_keys: "app",
  outbox: "platform",
  jobs: "platform",
  blobs: "platform",
  blob_chunks: "platform",
  instance_settings: "platform",
  rate_limit_counters: "platform",
  stripe_saved_cards: "platform",
  roda_migrations: "sql"
}

export interface ViewContract {
  readonly owner: Owner
  /** The owner's table the view shows (a projection: no filter, no join). */
  readonly table: string
  readonly description: string
}

/** The read contracts between features (migration 0029): each view, its owner and what it offers. */
export const views: Readonly<Record<string, ViewContract>> = {
  account_contacts: {
    owner: "identity",
    table: "accounts",
    description: "Who an account is and how to reach it (e-mail): receipts, notices, the caller of a request."
  },
  session_states: {
    owner: "identity",
    table: "auth_sessions",
    description: "Whether a sign-in session is open: the caller of a request is read only with a live one."
  },
  member_cards: {
    owner: "communities",
    table: "profiles",
    description: "A member as others show and address them: name, avatar, role, status (no phone, bio or tags)."
  },
  community_summaries: {
    owner: "communities",
    table: "communities",
    description: "A community's name, whether it is deleted, whether visitors see its status posts."
  },
  community_moderation: {
    owner: "communities",
    table: "communities",
    description: "A community's moderation settings that hold posts: holdFirstPosts, normalized blockedWords."
  },
  space_summaries: {
    owner: "structure",
    table: "spaces",
    description: "A space's title, place, posting policy and module."
  },
  space_grants: {
    owner: "structure",
    table: "spaces",
    description: "The products and plans whose buyers a space lets in."
  },
  course_items: {
    owner: "courses",
    table: "courses",
    description: "A course as an item of feeds, search and reactions."
  },
  lesson_titles: { owner: "courses", table: "lessons", description: "The titles of lessons (search)." },
  event_items: {
    owner: "events",
    table: "events",
    description: "An event as an item of feeds, search and reactions."
  },
  status_post_items: {
    owner: "social",
    table: "status_posts",
    description: "A status post as an item of the feed."
  },
  content_post_items: {
    owner: "social",
    table: "content_posts",
    description: "A content post as an item of the feed and search."
  },
  comment_activity: {
    owner: "social",
    table: "comments",
    description: "Who commented on which item, when (counts and rankings, not the text)."
  },
  reaction_activity: {
    owner: "social",
    table: "reactions",
    description: "Who reacted to which item, how and when."
  },
  product_summaries: {
    owner: "commerce/catalogue",
    table: "products",
    description: "What a product is and costs."
  },
  plan_products: {
    owner: "commerce/catalogue",
    table: "subscription_group_products",
    description: "Which products a plan offers, as billing option or add-on."
  },
  gateway_sellers: {
    owner: "commerce/checkout",
    table: "gateway_accounts",
    description: "The seller account of a community at each gateway (the Stripe adapter's store)."
  }
}
