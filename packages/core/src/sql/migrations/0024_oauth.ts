import { ddl } from "./ddl"

/**
 * The OAuth 2.1 authorization server of the MCP server (issue 15).
 *
 * `oauth_clients`: registered clients (RFC 7591) and Client ID Metadata Documents (the `id` is the
 * document's URL). `oauth_authorization_requests`: a request of `/oauth/authorize` waiting for
 * consent (10 minutes), decided once. `oauth_codes`: authorization codes (60 s, single use),
 * `oauth_connections`: an assistant bound to an account and a community, `oauth_tokens`: its access
 * and refresh tokens. Codes and tokens are kept only as SHA-256 hashes. `mcp_audit`: one row per tool
 * call, arguments with secrets redacted.
 */
export default ddl(
  `CREATE TABLE oauth_clients (
    id text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
    name text,
    uri text,
    redirect_uris jsonb NOT NULL,
    metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    fetched_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_authorization_requests (
    id uuid PRIMARY KEY,
    client_id text NOT NULL REFERENCES oauth_clients (id),
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    scopes text NOT NULL,
    state text,
    resource text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'consented', 'denied')),
    account_id uuid REFERENCES accounts (id),
    community_id uuid REFERENCES communities (id),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    decided_at timestamptz
  )`,
  `CREATE TABLE oauth_connections (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    account_id uuid NOT NULL REFERENCES accounts (id),
    client_id text NOT NULL REFERENCES oauth_clients (id),
    scopes text NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz,
    revoked_reason text,
    protocol_version text,
    server_version text,
    tools jsonb,
    last_error text,
    session_at timestamptz
  )`,
  `CREATE INDEX oauth_connections_community_idx ON oauth_connections (community_id, id DESC)`,
  `CREATE TABLE oauth_codes (
    code_hash text PRIMARY KEY,
    request_id uuid NOT NULL UNIQUE REFERENCES oauth_authorization_requests (id),
    community_id uuid NOT NULL REFERENCES communities (id),
    account_id uuid NOT NULL REFERENCES accounts (id),
    client_id text NOT NULL REFERENCES oauth_clients (id),
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    scopes text NOT NULL,
    resource text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    connection_id uuid REFERENCES oauth_connections (id)
  )`,
  `CREATE TABLE oauth_tokens (
    token_hash text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    connection_id uuid NOT NULL REFERENCES oauth_connections (id),
    community_id uuid NOT NULL REFERENCES communities (id),
    audience text NOT NULL,
    scopes text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    rotated_at timestamptz
  )`,
  `CREATE INDEX oauth_tokens_connection_idx ON oauth_tokens (connection_id)`,
  `CREATE TABLE mcp_audit (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    connection_id uuid REFERENCES oauth_connections (id),
    account_id uuid NOT NULL REFERENCES accounts (id),
    profile_id uuid NOT NULL,
    client_name text NOT NULL,
    tool text NOT NULL,
    arguments jsonb NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('ok', 'error')),
    error text,
    duration_ms integer NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX mcp_audit_community_idx ON mcp_audit (community_id, id DESC)`
)
