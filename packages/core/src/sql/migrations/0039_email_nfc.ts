import { ddl } from "./ddl"

/** How an address is compared since the NFC rule (`normalEmail` in domain/Fields.ts, less the trim). */
const key = (column: string) => `lower(normalize(${column}, NFC))`

/**
 * E-mails stored before the NFC rule (issue 52, item 7): decomposed (NFD) addresses could neither sign
 * in nor be found. Accounts and the addresses their links were sent to are rewritten to NFC. Two
 * accounts that become the same address are both kept as they were (rewriting one would break
 * `accounts_email_key`) and recorded in `account_email_conflicts` for an operator to resolve
 * (`roda admin accounts email-conflicts`). Other stored e-mails (outbox, certificates, contacts) are
 * records of where something was sent, not looked up, and stay as they are.
 */
export default ddl(
  `CREATE TABLE account_email_conflicts (
    account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    email_key text NOT NULL,
    found_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX account_email_conflicts_key_idx ON account_email_conflicts (email_key, account_id)`,
  `INSERT INTO account_email_conflicts (account_id, email_key)
    SELECT id, email_key FROM (
      SELECT id, ${key("email")} AS email_key, count(*) OVER (PARTITION BY ${key("email")}) AS sharing
      FROM accounts
    ) keyed
    WHERE sharing > 1`,
  `UPDATE accounts SET email = normalize(email, NFC), updated_at = now()
    WHERE email IS NOT NFC NORMALIZED
      AND NOT EXISTS (SELECT 1 FROM account_email_conflicts c WHERE c.account_id = accounts.id)`,
  `UPDATE password_links SET email = normalize(email, NFC) WHERE email IS NOT NFC NORMALIZED`
)
