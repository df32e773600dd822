import { ddl } from "./ddl"

/**
 * Erasure of an account (platform.md "Members' data rights", issue 56 item 4): `erased_at` marks an
 * account whose holder asked for erasure. Its e-mail becomes `erased+<id>@invalid` (unique, never
 * delivered: the `.invalid` top-level domain, RFC 2606), so the address is free to register again as a
 * new account; its name and password hash are cleared. An erased account cannot sign in, recover a
 * password or act with a token. The row itself stays: orders, ledger entries and certificates keep
 * their pseudonymous reference to it.
 */
export default ddl(
  `ALTER TABLE accounts ADD COLUMN erased_at timestamptz`
)
