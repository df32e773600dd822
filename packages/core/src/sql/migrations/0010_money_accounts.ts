import { ddl } from "./ddl"

/**
 * Business information and payout settings: one row each per community, with the review status a
 * platform operator moves (`draft`, `pending`, `approved`, `rejected`).
 */
const review = `status text NOT NULL CHECK (status IN ('draft', 'pending', 'approved', 'rejected')),
    rejection_reason text,
    submitted_at timestamptz,
    reviewed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()`

export default ddl(
  `CREATE TABLE business_information (
    community_id uuid PRIMARY KEY REFERENCES communities (id),
    country text NOT NULL,
    legal_name text NOT NULL,
    tax_id text NOT NULL,
    tax_id_type text,
    address jsonb,
    email text,
    phone text,
    ${review}
  )`,
  `CREATE TABLE payout_settings (
    community_id uuid PRIMARY KEY REFERENCES communities (id),
    method text NOT NULL CHECK (method IN ('PIX', 'BANK_ACCOUNT')),
    pix_key text,
    pix_key_type text,
    bank_account jsonb,
    ${review}
  )`,
  `CREATE INDEX business_information_pending_idx ON business_information (submitted_at) WHERE status = 'pending'`,
  `CREATE INDEX payout_settings_pending_idx ON payout_settings (submitted_at) WHERE status = 'pending'`
)
