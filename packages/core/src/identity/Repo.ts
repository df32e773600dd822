import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

export interface AccountRow {
  readonly id: string
  readonly email: string
  readonly fullName: string
  readonly passwordHash: string | null
  readonly createdAt: Date
}

export interface PasswordLinkRow {
  readonly id: string
  readonly purpose: "invite" | "recovery"
  readonly secretHash: string
  readonly expiresAt: Date
  readonly usedAt: Date | null
}

export type LinkPurpose = PasswordLinkRow["purpose"]

/** SQL for accounts, password links and login throttling. */
export class AccountsRepo extends Effect.Service<AccountsRepo>()("@roda/core/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

    return {
      findById: (id: string) =>
        sql<AccountRow>`SELECT id, email, full_name, password_hash, created_at FROM accounts WHERE id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      findByEmail: (email: string) =>
        sql<AccountRow>`SELECT id, email, full_name, password_hash, created_at FROM accounts
          WHERE lower(email) = lower(${email})`.pipe(Effect.map(first), Effect.orDie),
      /** Fails with the SqlError of a unique violation when the e-mail is taken. */
      insert: (account: { id: string; email: string; fullName: string; passwordHash: string | null }) =>
        sql`INSERT INTO accounts ${sql.insert(account)}`.pipe(Effect.asVoid),
      setPassword: (id: string, passwordHash: string) =>
        sql`UPDATE accounts SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setEmail: (id: string, email: string) =>
        sql`UPDATE accounts SET email = ${email}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid),

      insertLink: (
        link: { id: string; accountId: string; purpose: LinkPurpose; secretHash: string; expiresAt: Date }
      ) => sql`INSERT INTO password_links ${sql.insert(link)}`.pipe(Effect.asVoid, Effect.orDie),
      findLink: (accountId: string, secretHash: string) =>
        sql<PasswordLinkRow>`SELECT id, purpose, secret_hash, expires_at, used_at FROM password_links
          WHERE account_id = ${accountId} AND secret_hash = ${secretHash}`.pipe(Effect.map(first), Effect.orDie),
      /** Marks every open link of the account used; true when `linkId` was still open (single use under races). */
      consumeLinks: (accountId: string, linkId: string, now: Date) =>
        sql<{ id: string }>`UPDATE password_links SET used_at = ${now}
          WHERE account_id = ${accountId} AND used_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.some((row) => row.id === linkId)),
          Effect.orDie
        ),

      failuresOf: (key: string) =>
        sql<{ windowStartedAt: Date; failures: number }>`SELECT window_started_at, failures FROM login_failures
          WHERE key = ${key}`.pipe(Effect.map(first), Effect.orDie),
      /** Counts a failure in a fixed window that restarts once `windowSeconds` have passed. */
      recordFailure: (key: string, now: Date, windowSeconds: number) => {
        const windowStart = new Date(now.getTime() - windowSeconds * 1000)
        return sql`INSERT INTO login_failures (key, window_started_at, failures) VALUES (${key}, ${now}, 1)
          ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN login_failures.window_started_at <= ${windowStart} THEN 1
                            ELSE login_failures.failures + 1 END,
            window_started_at = CASE WHEN login_failures.window_started_at <= ${windowStart} THEN ${now}
                                     ELSE login_failures.window_started_at END`.pipe(Effect.asVoid, Effect.orDie)
      },
      clearFailures: (key: string) =>
        sql`DELETE FROM login_failures WHERE key = ${key}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
