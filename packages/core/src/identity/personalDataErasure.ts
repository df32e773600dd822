import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ErasureStep } from "../privacy/PersonalData"

/**
 * Identity's part of an erasure (issue 56 item 4), run last (the other steps may still read the
 * address, e.g. the community's sales e-mail): every session ends, every open link closes, the
 * sign-in limits that name the address go, and the account keeps only its id and dates: the e-mail
 * becomes `erased+<id>@invalid` (unique, never delivered), so the address may register again as a new
 * account; name, password hash and verification are cleared; `erased_at` is set once (a second run
 * changes nothing). Sign-in, recovery and tokens refuse an erased account (`Repo.ts`).
 */
export const identityErasure = Effect.map(SqlClient.SqlClient, (sql): ErasureStep => ({
  feature: "identity",
  keeps:
    "the account row (id, creation date, `erased_at`) with an e-mail of `erased+<id>@invalid`, so that orders, ledger and certificates keep a pseudonymous reference; no name, password or session.",
  erase: (subject) =>
    Effect.all([
      sql`UPDATE auth_sessions SET ended_at = now() WHERE account_id = ${subject.accountId} AND ended_at IS NULL`,
      sql`UPDATE password_links SET used_at = now() WHERE account_id = ${subject.accountId} AND used_at IS NULL`,
      sql`DELETE FROM account_email_conflicts WHERE account_id = ${subject.accountId}`,
      // the sign-in limits keyed by the address (identity/Identity.ts `throttleKeys`) or by the account
      sql`DELETE FROM login_failures l USING accounts a
        WHERE a.id = ${subject.accountId} AND a.erased_at IS NULL AND (
          l.key = 'account:' || lower(a.email)
          OR left(l.key, length('account-address:' || lower(a.email) || '|')) = 'account-address:' || lower(a.email) || '|'
          OR left(l.key, length('password:' || a.id::text || '|')) = 'password:' || a.id::text || '|')`,
      sql`UPDATE accounts SET email = 'erased+' || id::text || '@invalid', full_name = '', password_hash = NULL,
          email_verified_at = NULL, erased_at = now(), updated_at = now()
        WHERE id = ${subject.accountId} AND erased_at IS NULL`
    ], { discard: true }).pipe(Effect.orDie)
}))
