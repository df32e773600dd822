import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import { type LedgerAccount, ledgerAccounts, type TransactionKind, transactionKinds } from "./terms"

/** A type alias (not an interface), so that it is a `Record` for `sql.insert`. */
export type TransactionRow = {
  readonly id: string
  readonly communityId: CommunityId
  readonly kind: TransactionKind
  readonly idempotencyKey: string
  readonly reference: string | null
  readonly description: string
  readonly occurredAt: Date
  readonly postedAt: Date
  readonly paymentMethod: string | null
  /** Figures of a sale or refund (sales report); null for other kinds. */
  readonly currency: string | null
  readonly gross: number | null
  readonly fee: number | null
  readonly interest: number | null
  readonly net: number | null
}

/** A type alias (not an interface), so that it is a `Record` for `sql.insert`. */
export type EntryRow = {
  readonly id: string
  readonly communityId: CommunityId
  readonly transactionId: string
  readonly kind: TransactionKind
  readonly account: LedgerAccount
  readonly currency: string
  readonly amount: number
  readonly balanceAfter: number
  readonly postedAt: Date
}

export interface BalanceChange {
  readonly account: LedgerAccount
  readonly currency: string
  readonly amount: number
}

/** A type alias (not an interface), so that it is a `Record` for `sql.insert`. */
export type ReleaseRow = {
  readonly id: string
  readonly communityId: CommunityId
  readonly saleTransactionId: string
  readonly reference: string | null
  readonly description: string
  readonly currency: string
  readonly amount: number
  readonly releaseAt: Date
}

const Account = Schema.Literal(...ledgerAccounts)
const Kind = Schema.Literal(...transactionKinds)

/** A statement line as read: amounts as text (bigint), made numbers after decoding. */
const StatementText = Schema.Struct({
  id: Schema.String,
  seq: Schema.String,
  transactionId: Schema.String,
  kind: Kind,
  account: Account,
  currency: Schema.String,
  amount: Schema.String,
  balanceAfter: Schema.String,
  reference: Schema.NullOr(Schema.String),
  description: Schema.String,
  occurredAt: Schema.DateFromSelf,
  postedAt: Schema.DateFromSelf
})

/** A statement line: an entry with its transaction's reference, description and dates. */
export type StatementRow = Omit<typeof StatementText.Type, "amount" | "balanceAfter"> & {
  readonly amount: number
  readonly balanceAfter: number
}

export interface StatementFilter {
  readonly accounts: ReadonlyArray<LedgerAccount>
  readonly kind?: TransactionKind | undefined
  readonly currency?: string | undefined
  readonly from?: Date | undefined
  /** Exclusive. */
  readonly until?: Date | undefined
  /** Entries before this sequence number (keyset). */
  readonly beforeSeq?: string | undefined
  readonly limit: number
}

export interface BalanceRow {
  readonly account: LedgerAccount
  readonly currency: string
  readonly balance: number
}

const ReleaseText = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  saleTransactionId: Schema.String,
  reference: Schema.NullOr(Schema.String),
  description: Schema.String,
  currency: Schema.String,
  amount: Schema.String,
  releaseAt: Schema.DateFromSelf
})
const SaleReleaseText = Schema.Struct({ ...ReleaseText.fields, releasedAt: Schema.NullOr(Schema.DateFromSelf) })
const IdRow = Schema.Struct({ id: Schema.String })
const BalanceText = Schema.Struct({ account: Account, currency: Schema.String, balance: Schema.String })
const LockedBalanceText = Schema.Struct({ balance: Schema.String })
const SaleRefundsText = Schema.Struct({ gross: Schema.NullOr(Schema.String), refunded: Schema.String })
const DueRow = Schema.Struct({ due: Schema.Boolean })
const SettledRow = Schema.Struct({ settled: Schema.Boolean })

/** bigint columns travel as text (a JS number keeps every amount the ledger can hold exactly). */
const amountsOf = <Row extends { readonly amount: unknown }>(row: Row) => ({ ...row, amount: Number(row.amount) })

/** SQL of the ledger: transactions, entries, balances and scheduled releases. */
export class LedgerRepo extends Effect.Service<LedgerRepo>()("@roda/core/LedgerRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodeBalances = Schema.decodeUnknown(Schema.Array(BalanceText))
    const decodeLockedBalance = Schema.decodeUnknown(Schema.Array(LockedBalanceText))
    const decodeReleases = Schema.decodeUnknown(Schema.Array(ReleaseText))
    const decodeSaleReleases = Schema.decodeUnknown(Schema.Array(SaleReleaseText))
    const decodeStatement = Schema.decodeUnknown(Schema.Array(StatementText))
    const decodeSaleRefunds = Schema.decodeUnknown(Schema.Array(SaleRefundsText))
    const decodeDue = Schema.decodeUnknown(Schema.Array(DueRow))
    const decodeSettled = Schema.decodeUnknown(Schema.Array(SettledRow))

    /** Inserts the transaction unless its key was used; whether it was inserted. */
    const insertTransaction = (row: TransactionRow) =>
      sql`INSERT INTO ledger_transactions ${sql.insert(row)}
        ON CONFLICT (community_id, idempotency_key) DO NOTHING RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const transactionIdByKey = (communityId: CommunityId, key: string) =>
      sql`SELECT id FROM ledger_transactions
        WHERE community_id = ${communityId} AND idempotency_key = ${key}`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows[0]?.id),
        Effect.orDie
      )

    /**
     * Adds the changes to the balances, locking each balance row (in the order given: callers sort,
     * so concurrent postings lock in one order); the balances after, in the same order.
     */
    const addToBalances = (communityId: CommunityId, changes: ReadonlyArray<BalanceChange>, at: Date) =>
      sql`
        INSERT INTO ledger_balances ${
        sql.insert(changes.map((change) => ({
          communityId,
          account: change.account,
          currency: change.currency,
          balance: change.amount,
          updatedAt: at
        })))
      }
        ON CONFLICT (community_id, account, currency)
        DO UPDATE SET balance = ledger_balances.balance + excluded.balance, updated_at = excluded.updated_at
        RETURNING account, currency, balance::text AS balance`.pipe(
        Effect.flatMap(decodeBalances),
        Effect.map((rows) =>
          changes.map((change) => {
            const row = rows.find((r) => r.account === change.account && r.currency === change.currency)
            return Number(row!.balance)
          })
        ),
        Effect.orDie
      )

    const insertEntries = (rows: ReadonlyArray<EntryRow>) =>
      rows.length === 0
        ? Effect.void
        : sql`INSERT INTO ledger_entries ${sql.insert(rows)}`.pipe(Effect.asVoid, Effect.orDie)

    const insertRelease = (row: ReleaseRow) =>
      sql`INSERT INTO ledger_releases ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    const releaseColumns = sql`id, community_id, sale_transaction_id, reference, description, currency,
      amount::text AS amount, release_at`

    /**
     * Whether the community's earliest pending release is due: the first row of a partial index. An
     * `EXISTS (… release_at <= now)` was planned as a sequential scan expecting an early match (most
     * release times are past, of released rows), and read all 140,000 rows when none was due.
     */
    const hasDue = (communityId: CommunityId, now: Date) =>
      sql`SELECT coalesce((SELECT release_at FROM ledger_releases
          WHERE community_id = ${communityId} AND released_at IS NULL
          ORDER BY release_at LIMIT 1) <= ${now}, FALSE) AS due`.pipe(
        Effect.flatMap(decodeDue),
        Effect.map((rows) => rows[0]?.due === true),
        Effect.orDie
      )

    /**
     * Due releases of a community, locked. A concurrent caller waits for the lock, then finds the
     * row released and skips it, so each release is posted once.
     */
    const lockDue = (communityId: CommunityId, now: Date, limit: number) =>
      sql`SELECT ${releaseColumns} FROM ledger_releases
        WHERE community_id = ${communityId} AND released_at IS NULL AND release_at <= ${now}
        ORDER BY release_at, id LIMIT ${limit} FOR UPDATE`.pipe(
        Effect.flatMap(decodeReleases),
        Effect.map((rows) => rows.map(amountsOf)),
        Effect.orDie
      )

    /** Due releases of every community, for a background job: rows another worker holds are skipped. */
    const lockAnyDue = (now: Date, limit: number) =>
      sql`SELECT ${releaseColumns} FROM ledger_releases
        WHERE released_at IS NULL AND release_at <= ${now}
        ORDER BY release_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(
        Effect.flatMap(decodeReleases),
        Effect.map((rows) => rows.map(amountsOf)),
        Effect.orDie
      )

    const markReleased = (row: ReleaseRow, at: Date, transactionId: string) =>
      sql`UPDATE ledger_releases SET released_at = ${at}, release_transaction_id = ${transactionId}
        WHERE community_id = ${row.communityId} AND id = ${row.id} AND released_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const statement = (communityId: CommunityId, filter: StatementFilter) =>
      sql`
        SELECT e.id, e.seq::text AS seq, e.transaction_id, e.kind, e.account, e.currency,
          e.amount::text AS amount, e.balance_after::text AS balance_after,
          t.reference, t.description, t.occurred_at, e.posted_at
        FROM ledger_entries e
        JOIN ledger_transactions t ON t.community_id = e.community_id AND t.id = e.transaction_id
        WHERE e.community_id = ${communityId} AND ${sql.in("e.account", filter.accounts)}
          ${filter.kind ? sql`AND e.kind = ${filter.kind}` : sql``}
          ${filter.currency ? sql`AND e.currency = ${filter.currency}` : sql``}
          ${filter.from ? sql`AND e.posted_at >= ${filter.from}` : sql``}
          ${filter.until ? sql`AND e.posted_at < ${filter.until}` : sql``}
          ${filter.beforeSeq ? sql`AND e.seq < ${filter.beforeSeq}::bigint` : sql``}
        ORDER BY e.seq DESC
        LIMIT ${filter.limit + 1}`.pipe(
        Effect.flatMap(decodeStatement),
        Effect.map((rows) =>
          rows.map((row) => ({ ...row, amount: Number(row.amount), balanceAfter: Number(row.balanceAfter) }))
        ),
        Effect.orDie
      )

    const balances = (communityId: CommunityId, accounts: ReadonlyArray<LedgerAccount>) =>
      sql`SELECT account, currency, balance::text AS balance
        FROM ledger_balances WHERE community_id = ${communityId} AND ${sql.in("account", accounts)}
        ORDER BY currency, account`.pipe(
        Effect.flatMap(decodeBalances),
        Effect.map((rows) => rows.map((row) => ({ ...row, balance: Number(row.balance) }))),
        Effect.orDie
      )

    /** A balance row locked until the transaction ends; 0 when the account never moved. */
    const lockBalance = (communityId: CommunityId, account: LedgerAccount, currency: string) =>
      sql`SELECT balance::text AS balance FROM ledger_balances
        WHERE community_id = ${communityId} AND account = ${account} AND currency = ${currency}
        FOR UPDATE`.pipe(
        Effect.flatMap(decodeLockedBalance),
        Effect.map((rows) => Number(rows[0]?.balance ?? 0)),
        Effect.orDie
      )

    /** The release row of a sale (by its transaction key), locked; none for a sale with nothing to release. */
    const lockSaleRelease = (communityId: CommunityId, saleKey: string) =>
      sql`
        SELECT r.id, r.community_id, r.sale_transaction_id, r.reference, r.description, r.currency,
          r.amount::text AS amount, r.release_at, r.released_at
        FROM ledger_releases r
        JOIN ledger_transactions t ON t.community_id = r.community_id AND t.id = r.sale_transaction_id
        WHERE t.community_id = ${communityId} AND t.idempotency_key = ${saleKey}
        FOR UPDATE OF r`.pipe(
        Effect.flatMap(decodeSaleReleases),
        Effect.map((rows) => rows.map(amountsOf)[0]),
        Effect.orDie
      )

    /**
     * A sale's gross, read under a lock of its transaction row (so refunds of one charge, from any
     * feature, go one at a time), and the gross of the refunds posted against it so far.
     */
    const lockSaleRefunds = (communityId: CommunityId, chargeId: string) =>
      sql`
        SELECT t.gross::text AS gross, (
          SELECT coalesce(sum(r.gross), 0)::text FROM ledger_transactions r
          WHERE r.community_id = t.community_id AND r.kind = 'refund' AND r.reference = ${chargeId}
        ) AS refunded
        FROM ledger_transactions t
        WHERE t.community_id = ${communityId} AND t.idempotency_key = ${`sale:${chargeId}`}
        FOR UPDATE OF t`.pipe(
        Effect.flatMap(decodeSaleRefunds),
        Effect.map((rows) =>
          rows[0] === undefined || rows[0].gross === null
            ? undefined
            : { gross: Number(rows[0].gross), refunded: Number(rows[0].refunded) }
        ),
        Effect.orDie
      )

    /** Whether a charge's sale credited the community's gateway-settled account (a Connect destination charge). */
    const saleSettledByGateway = (communityId: CommunityId, chargeId: string) =>
      sql`SELECT EXISTS (
          SELECT 1 FROM ledger_transactions t
          JOIN ledger_entries e ON e.community_id = t.community_id AND e.transaction_id = t.id
          WHERE t.community_id = ${communityId} AND t.idempotency_key = ${`sale:${chargeId}`}
            AND e.account = 'community_gateway_settled'
        ) AS settled`.pipe(Effect.flatMap(decodeSettled), Effect.map((rows) => rows[0]?.settled === true), Effect.orDie)

    /** Takes `amount` off a release not yet posted (a refund took it from pending). */
    const reduceRelease = (communityId: CommunityId, id: string, amount: number) =>
      sql`UPDATE ledger_releases SET amount = amount - ${amount}
        WHERE community_id = ${communityId} AND id = ${id} AND released_at IS NULL`.pipe(Effect.asVoid, Effect.orDie)

    return {
      lockBalance,
      lockSaleRelease,
      lockSaleRefunds,
      saleSettledByGateway,
      reduceRelease,
      insertTransaction,
      transactionIdByKey,
      addToBalances,
      insertEntries,
      insertRelease,
      hasDue,
      lockDue,
      lockAnyDue,
      markReleased,
      statement,
      balances
    }
  })
}) {}
