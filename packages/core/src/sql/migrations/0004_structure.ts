import { ddl } from "./ddl"

/** Sections, spaces (with their access grants) and the entitlements that open gated spaces. */
export default ddl(
  `CREATE TABLE sections (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    title text NOT NULL,
    visibility text NOT NULL CHECK (visibility IN ('public', 'private', 'secret')),
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX sections_community_id_key ON sections (community_id, id)`,
  `CREATE INDEX sections_community_position_idx ON sections (community_id, position, id)`,
  `CREATE TABLE spaces (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    section_id uuid NOT NULL,
    title text NOT NULL,
    module text NOT NULL,
    visibility text NOT NULL CHECK (visibility IN ('public', 'private', 'secret')),
    access_subscription_group_ids uuid[] NOT NULL DEFAULT '{}',
    access_product_ids uuid[] NOT NULL DEFAULT '{}',
    posting_policy text NOT NULL DEFAULT 'members' CHECK (posting_policy IN ('members', 'staff')),
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, section_id) REFERENCES sections (community_id, id)
  )`,
  `CREATE UNIQUE INDEX spaces_community_id_key ON spaces (community_id, id)`,
  `CREATE INDEX spaces_community_section_position_idx ON spaces (community_id, section_id, position, id)`,
  `CREATE TABLE entitlements (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    profile_id uuid NOT NULL,
    source_type text NOT NULL CHECK (source_type IN ('plan', 'product')),
    source_id uuid NOT NULL,
    valid_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX entitlements_community_profile_idx ON entitlements (community_id, profile_id, source_type, source_id)`
)
