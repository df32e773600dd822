import { ddl } from "./ddl"

export default ddl(
  `CREATE TABLE communities (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    slug text NOT NULL,
    custom_domain text,
    settings jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_by uuid NOT NULL REFERENCES accounts (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE UNIQUE INDEX communities_slug_key ON communities (slug) WHERE deleted_at IS NULL`,
  `CREATE UNIQUE INDEX communities_domain_key ON communities (lower(custom_domain))
    WHERE deleted_at IS NULL AND custom_domain IS NOT NULL`,
  `CREATE TABLE profiles (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    account_id uuid NOT NULL REFERENCES accounts (id),
    role text NOT NULL CHECK (role IN ('owner', 'admin', 'moderator', 'member', 'finance')),
    full_name text NOT NULL,
    phone text,
    bio text,
    avatar_url text,
    tags text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    removed_at timestamptz
  )`,
  `CREATE UNIQUE INDEX profiles_community_account_key ON profiles (community_id, account_id)`,
  `CREATE UNIQUE INDEX profiles_community_id_key ON profiles (community_id, id)`,
  `CREATE INDEX profiles_account_idx ON profiles (account_id) WHERE removed_at IS NULL`,
  `CREATE INDEX profiles_community_role_idx ON profiles (community_id, role, id) WHERE removed_at IS NULL`,
  `CREATE INDEX profiles_tags_idx ON profiles USING gin (tags)`,
  `CREATE TABLE tag_colors (
    community_id uuid NOT NULL REFERENCES communities (id),
    tag text NOT NULL,
    color text NOT NULL,
    PRIMARY KEY (community_id, tag)
  )`,
  `CREATE TABLE notification_settings (
    community_id uuid PRIMARY KEY REFERENCES communities (id),
    sales_email text,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`
)
