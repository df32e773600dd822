import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { normalEmail } from "../domain/Fields"
import { AccountId } from "../domain/Ids"
import { firstRow } from "../domain/Rows"

/** An account as its statements read it (decoded at the boundary: the id is an `AccountId`). */
export const AccountRow = Schema.Struct({
  id: AccountId,
  email: Schema.String,
  fullName: Schema.String,
  passwordHash: Schema.NullOr(Schema.String),
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
})
export type AccountRow = typeof AccountRow.Type

const AccountFrom = Schema.Struct({ ...AccountRow.fields, knownClient: Schema.Boolean })

export const PasswordLinkRow = Schema.Struct({
  id: Schema.String,
  purpose: Schema.Literal("invite", "recovery", "email-change", "verify-email", "email-undo"),
  /** The address the link was e-mailed to (null for links issued before it was recorded). */
  email: Schema.NullOr(Schema.String),
  secretHash: Schema.String,
  expiresAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type PasswordLinkRow = typeof PasswordLinkRow.Type

const FailuresRow = Schema.Struct({ windowStartedAt: Schema.DateFromSelf, failures: Schema.Number })
const IdRow = Schema.Struct({ id: Schema.String })

export type LinkPurpose = PasswordLinkRow["purpose"]

/** Links that set a password, and links that confirm an e-mail address. */
export const passwordPurposes: ReadonlyArray<LinkPurpose> = ["invite", "recovery"]
export const emailPurposes: ReadonlyArray<LinkPurpose> = ["email-change", "verify-email", "email-undo"]
/** Every purpose but `email-undo`: the links an e-mail change closes (the undo link must outlive it). */
export const closedByEmailChange: ReadonlyArray<LinkPurpose> = ["invite", "recovery", "email-change", "verify-email"]

/** SQL for accounts, password links and login throttling. */
export class AccountsRepo extends Effect.Service<AccountsRepo>()("@roda/core/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, email, full_name, password_hash, email_verified_at, created_at`
    const firstAccount = firstRow(AccountRow)
    const findById = (id: string) =>
      sql`SELECT ${columns} FROM accounts WHERE id = ${id}`.pipe(Effect.flatMap(firstAccount))
    const findByEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: AccountRow,
      execute: (email) =>
        sql`SELECT ${columns} FROM accounts WHERE lower(email) = lower(${normalEmail(email)}) AND erased_at IS NULL`
    })
    /** The account, only while its session `sessionId` is open (the request's caller: no Request encoding). */
    /** The account, while its session is open; without a session (an API key's caller), the account alone. */
    const findCaller = ({ accountId, sessionId }: { accountId: string; sessionId: string | undefined }) =>
      sql`SELECT a.id, a.email, a.full_name, a.password_hash, a.email_verified_at, a.created_at
          FROM accounts a ${
        sessionId === undefined
          ? sql``
          : sql`JOIN auth_sessions s ON s.id = ${sessionId} AND s.account_id = a.id AND s.ended_at IS NULL`
      }
          WHERE a.id = ${accountId} AND a.erased_at IS NULL`.pipe(Effect.flatMap(firstAccount))
    const findByEmailFrom = SqlSchema.findOne({
      Request: Schema.Struct({
        email: Schema.String,
        clientAddress: Schema.UndefinedOr(Schema.String),
        since: Schema.DateFromSelf
      }),
      Result: AccountFrom,
      execute: ({ clientAddress, email, since }) =>
        sql`SELECT ${columns}, ${
          clientAddress === undefined
            ? sql`false`
            : sql`EXISTS (SELECT 1 FROM auth_sessions s WHERE s.account_id = accounts.id
                AND s.client_address = ${clientAddress} AND s.created_at >= ${since})`
        } AS known_client
          FROM accounts WHERE lower(email) = lower(${normalEmail(email)}) AND erased_at IS NULL`
    })
    const findLink = SqlSchema.findOne({
      Request: Schema.Struct({
        accountId: Schema.String,
        secretHash: Schema.String,
        purposes: Schema.Array(PasswordLinkRow.fields.purpose)
      }),
      Result: PasswordLinkRow,
      execute: ({ accountId, purposes, secretHash }) =>
        sql`SELECT id, purpose, email, secret_hash, expires_at, used_at FROM password_links
          WHERE account_id = ${accountId} AND secret_hash = ${secretHash} AND purpose IN ${sql.in(purposes)}`
    })
    const failuresOf = SqlSchema.findOne({
      Request: Schema.String,
      Result: FailuresRow,
      execute: (key) => sql`SELECT window_started_at, failures FROM login_failures WHERE key = ${key}`
    })
    const usedIds = Schema.decodeUnknown(Schema.Array(IdRow))

    return {
      findById: (id: string) => findById(id).pipe(Effect.orDie),
      /** Whether the account exists (none) and when it was erased (null: a live account). */
      erasedAt: (id: string) =>
        sql`SELECT erased_at FROM accounts WHERE id = ${id}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => (row.erasedAt as Date | null) ?? null)
          ),
          Effect.orDie
        ),
      findByEmail: (email: string) => findByEmail(email).pipe(Effect.orDie),
      /** The account of a token, in one statement with its session: none when either is gone or the session ended. */
      findCaller: (accountId: AccountId, sessionId: string | undefined) =>
        findCaller({ accountId, sessionId }).pipe(Effect.orDie),
      /**
       * The account of an e-mail, and whether it signed in from `clientAddress` since `since` (a
       * client of the holder, not counted against the account's sign-in limit), in one statement.
       */
      findByEmailFrom: (email: string, clientAddress: string | undefined, since: Date) =>
        findByEmailFrom({ email, clientAddress, since }).pipe(Effect.orDie),
      /** Fails with the SqlError of a unique violation when the e-mail is taken. */
      insert: (account: { id: string; email: string; fullName: string; passwordHash: string | null }) =>
        sql`INSERT INTO accounts ${sql.insert({ ...account, email: normalEmail(account.email) })}`.pipe(Effect.asVoid),
      /**
       * Sets the password; the e-mail becomes verified when the link used was sent to the account's
       * current address (`sentTo`).
       */
      setPassword: (id: string, passwordHash: string, sentTo?: string | null) =>
        sql`UPDATE accounts SET password_hash = ${passwordHash}, updated_at = now(),
          email_verified_at = CASE WHEN ${sentTo ?? null}::text IS NOT NULL AND lower(email) = lower(${
          sentTo ?? null
        }::text)
            THEN coalesce(email_verified_at, now()) ELSE email_verified_at END
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** A confirmed address: set and verified at once. Fails with the SqlError of a unique violation. */
      setVerifiedEmail: (id: string, email: string, at: Date) =>
        sql`UPDATE accounts SET email = ${normalEmail(email)}, email_verified_at = ${at}, updated_at = now()
          WHERE id = ${id}`.pipe(Effect.asVoid),

      insertLink: (
        link: {
          id: string
          accountId: AccountId
          purpose: LinkPurpose
          email: string
          secretHash: string
          expiresAt: Date
        }
      ) => sql`INSERT INTO password_links ${sql.insert(link)}`.pipe(Effect.asVoid, Effect.orDie),
      findLink: (accountId: AccountId, secretHash: string, purposes: ReadonlyArray<LinkPurpose>) =>
        findLink({ accountId, secretHash, purposes }).pipe(Effect.orDie),
      /**
       * Marks every open link of the account with one of `purposes` used; true when `linkId` was
       * still open (single use under races).
       */
      consumeLinks: (accountId: AccountId, linkId: string, now: Date, purposes: ReadonlyArray<LinkPurpose>) =>
        sql`UPDATE password_links SET used_at = ${now}
          WHERE account_id = ${accountId} AND used_at IS NULL AND purpose IN ${sql.in(purposes)} RETURNING id`.pipe(
          Effect.flatMap(usedIds),
          Effect.map((rows) => rows.some((row) => row.id === linkId)),
          Effect.orDie
        ),
      /** Marks one open link of the account used; false when it was not open any more. */
      consumeLink: (accountId: AccountId, linkId: string, now: Date) =>
        sql`UPDATE password_links SET used_at = ${now}
          WHERE id = ${linkId} AND account_id = ${accountId} AND used_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Closes the account's open links of `purposes` (all when absent). */
      closeLinks: (accountId: AccountId, now: Date, purposes?: ReadonlyArray<LinkPurpose>) =>
        (purposes === undefined
          ? sql`UPDATE password_links SET used_at = ${now} WHERE account_id = ${accountId} AND used_at IS NULL`
          : sql`UPDATE password_links SET used_at = ${now} WHERE account_id = ${accountId} AND used_at IS NULL
              AND purpose IN ${sql.in(purposes)}`).pipe(
            Effect.asVoid,
            Effect.orDie
          ),

      failuresOf: (key: string) => failuresOf(key).pipe(Effect.orDie),
      /**
       * Reserves one attempt under `key` in a single statement, before any password is checked: true
       * when the key had fewer than `limit` attempts in its window (a window older than
       * `windowSeconds` starts again). Concurrent attempts serialise on the row, so at most `limit`
       * get through.
       */
      reserveAttempt: (key: string, limit: number, now: Date, windowSeconds: number) => {
        const windowStart = new Date(now.getTime() - windowSeconds * 1000)
        return sql`INSERT INTO login_failures (key, window_started_at, failures)
          VALUES (${key}, ${now}, 1)
          ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN login_failures.window_started_at <= ${windowStart} THEN 1
                            ELSE login_failures.failures + 1 END,
            window_started_at = CASE WHEN login_failures.window_started_at <= ${windowStart} THEN ${now}
                                     ELSE login_failures.window_started_at END
          WHERE login_failures.window_started_at <= ${windowStart} OR login_failures.failures < ${limit}
          RETURNING failures`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
      },
      /** Gives back one reserved attempt (the sign-in succeeded, or another key refused it). */
      releaseAttempt: (key: string) =>
        sql`UPDATE login_failures SET failures = greatest(failures - 1, 0) WHERE key = ${key}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      clearFailures: (key: string) =>
        sql`DELETE FROM login_failures WHERE key = ${key}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}
