import { ddl } from "./ddl"

/**
 * Consent and verified e-mails (issue 10, items 1 and 2): an account's e-mail is verified once a
 * link sent to it was used; profiles of existing accounts start `invited` until accepted; links
 * remember the address they were sent to, and `email-change` / `verify-email` links confirm an address.
 */
export default ddl(
  `ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz`,
  `ALTER TABLE profiles ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'invited'))`,
  `ALTER TABLE password_links ADD COLUMN email text`,
  `ALTER TABLE password_links DROP CONSTRAINT password_links_purpose_check`,
  `ALTER TABLE password_links ADD CONSTRAINT password_links_purpose_check
    CHECK (purpose IN ('invite', 'recovery', 'email-change', 'verify-email'))`
)
