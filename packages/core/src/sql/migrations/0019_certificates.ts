import { ddl } from "./ddl"

/**
 * Certificates (issue 13). A space's rule says who issues; templates of a space move
 * `draft -> active -> archived`; a batch issues one certificate per recipient. A certificate row is
 * the unit of durable work: a worker claims `pending` rows (or `generating` rows whose lease ran out,
 * left by a process that died) with `FOR UPDATE SKIP LOCKED`, renders, stores the files and marks the
 * row `issued` with the batch counters in one transaction, so each recipient is issued exactly once.
 * `certificates_holder_key` lets a profile hold at most one live certificate of a template (revoked
 * and superseded ones do not count), which is how batches skip recipients and stay idempotent.
 * Issuer keys: one Ed25519 key pair per community (Open Badges VC-JWT).
 */
export default ddl(
  `CREATE TABLE certificate_space_rules (
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    issuer text NOT NULL CHECK (issuer IN ('staff', 'course_completion', 'event_attendance')),
    space_title text NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, space_id)
  )`,
  `CREATE TABLE certificate_templates (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    name text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    font_id text NOT NULL,
    orientation text NOT NULL CHECK (orientation IN ('landscape', 'portrait')),
    page_size text NOT NULL DEFAULT 'A4' CHECK (page_size IN ('A4', 'Letter')),
    background text NOT NULL,
    logo_key text,
    signature_key text,
    status text NOT NULL CHECK (status IN ('draft', 'active', 'archived')),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX certificate_templates_community_id_key ON certificate_templates (community_id, id)`,
  `CREATE INDEX certificate_templates_space_idx ON certificate_templates (community_id, space_id, created_at, id)`,
  `CREATE TABLE certificate_batches (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    template_id uuid NOT NULL,
    created_by_profile_id uuid,
    source text NOT NULL DEFAULT 'staff',
    status text NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'completed_with_errors')),
    total integer NOT NULL,
    issued integer NOT NULL DEFAULT 0,
    failed integer NOT NULL DEFAULT 0,
    skipped integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    finished_at timestamptz
  )`,
  `CREATE UNIQUE INDEX certificate_batches_community_id_key ON certificate_batches (community_id, id)`,
  `CREATE TABLE certificates (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    template_id uuid NOT NULL,
    batch_id uuid,
    profile_id uuid NOT NULL,
    account_id uuid NOT NULL,
    recipient_name text NOT NULL,
    recipient_email text NOT NULL,
    space_title text NOT NULL,
    code text NOT NULL,
    status text NOT NULL DEFAULT 'pending'
      CHECK (status IN ('pending', 'generating', 'issued', 'failed', 'revoked', 'superseded')),
    attempts integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    last_error text,
    pdf_key text,
    image_key text,
    indexing boolean NOT NULL DEFAULT false,
    revoked_at timestamptz,
    revoke_reason text,
    superseded_by_id uuid,
    supersedes_id uuid,
    issued_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX certificates_code_key ON certificates (code)`,
  `CREATE UNIQUE INDEX certificates_community_id_key ON certificates (community_id, id)`,
  `CREATE UNIQUE INDEX certificates_holder_key ON certificates (community_id, template_id, profile_id)
    WHERE status NOT IN ('revoked', 'superseded')`,
  `CREATE INDEX certificates_space_idx ON certificates (community_id, space_id, created_at, id)`,
  `CREATE INDEX certificates_account_idx ON certificates (account_id, created_at, id)`,
  `CREATE INDEX certificates_batch_work_idx ON certificates (batch_id, status) WHERE status IN ('pending', 'generating')`,
  `CREATE TABLE certificate_issuer_keys (
    community_id uuid PRIMARY KEY REFERENCES communities (id),
    kid text NOT NULL,
    public_jwk jsonb NOT NULL,
    private_jwk jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX certificate_issuer_keys_kid_key ON certificate_issuer_keys (kid)`
)
