import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import type { DisputeMove, PaidSale, PayoutMove, SaleRefund } from "./LedgerPosting"
import { type BalanceChange, LedgerRepo, type ReleaseRow } from "./LedgerRepo"
import { releaseAfterDays } from "./salePricing"
import { type LedgerAccount, lockRank, payoutBalanceAccounts, type TransactionKind } from "./terms"

/** A balanced set of entries to post as one ledger transaction. */
export interface Posting {
  readonly communityId: CommunityId
  readonly kind: TransactionKind
  /** Unique per community: posting the same key twice posts once. */
  readonly key: string
  readonly reference: string | null
  readonly description: string
  /** When it happened in the world (a sale's payment, a release's due time); `postedAt` is now. */
  readonly occurredAt: Date
  readonly entries: ReadonlyArray<BalanceChange>
  /** A sale's payment method (the sales report groups by it). */
  readonly paymentMethod?: string | undefined
  /** A sale's or refund's figures, kept on the transaction for the sales report (one row per sale). */
  readonly figures?: SaleFigures | undefined
}

export interface SaleFigures {
  readonly currency: string
  /** What the buyer paid (a sale) or got back (a refund). */
  readonly gross: number
  readonly fee: number
  readonly interest: number
  /** The community's part. */
  readonly net: number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** Releases posted per database transaction by one `releaseDue` round. */
const RELEASE_BATCH = 200

/** Same account and currency merged, zeros dropped, in lock order (`lockRank`, then currency). */
const normalised = (entries: ReadonlyArray<BalanceChange>): ReadonlyArray<BalanceChange> => {
  const sums = new Map<string, BalanceChange>()
  for (const entry of entries) {
    const key = `${entry.account} ${entry.currency}`
    const amount = (sums.get(key)?.amount ?? 0) + entry.amount
    sums.set(key, { account: entry.account, currency: entry.currency, amount })
  }
  return [...sums.values()]
    .filter((entry) => entry.amount !== 0)
    .sort((a, b) =>
      lockRank(a.account) - lockRank(b.account) || (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)
    )
}

/** Whether the entries sum to zero in every currency (the database checks it again at commit). */
export const isBalanced = (entries: ReadonlyArray<BalanceChange>): boolean => {
  const sums = new Map<string, number>()
  for (const entry of entries) sums.set(entry.currency, (sums.get(entry.currency) ?? 0) + entry.amount)
  return [...sums.values()].every((sum) => sum === 0)
}

const entry = (account: LedgerAccount, currency: string, amount: number): BalanceChange => ({
  account,
  currency,
  amount
})

/** The figures of a sale must add up before anything is posted; a mismatch is a bug, not a client error. */
const checkSale = (sale: PaidSale) => {
  const a = sale.amounts
  const figures = [a.amount, a.total, a.interest, a.fee, a.net]
  const whole = figures.every((value) => Number.isSafeInteger(value) && value >= 0)
  return whole && a.total === a.amount + a.interest && a.fee + a.net === a.amount
    ? Effect.void
    : Effect.dieMessage(`LedgerPosting.recordSale: inconsistent sale amounts ${JSON.stringify(a)}`)
}

/**
 * Posts ledger transactions: balanced, idempotent per key, balances changed under their row locks.
 * Used by `LedgerPosting` (sales) and by the ledger reads (releases that fell due).
 */
export class Journal extends Effect.Service<Journal>()("@roda/core/Journal", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* LedgerRepo
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The transaction's id, or none when a transaction with that key was already posted. */
    const post = (posting: Posting) =>
      transactional(sql)(Effect.gen(function*() {
        if (!isBalanced(posting.entries)) {
          return yield* Effect.dieMessage(`Journal.post: ${posting.key} does not sum to zero per currency`)
        }
        const id = yield* ids.next
        const postedAt = yield* now
        const inserted = yield* repo.insertTransaction({
          id,
          communityId: posting.communityId,
          kind: posting.kind,
          idempotencyKey: posting.key,
          reference: posting.reference,
          description: posting.description,
          occurredAt: posting.occurredAt,
          postedAt,
          paymentMethod: posting.paymentMethod ?? null,
          currency: posting.figures?.currency ?? null,
          gross: posting.figures?.gross ?? null,
          fee: posting.figures?.fee ?? null,
          interest: posting.figures?.interest ?? null,
          net: posting.figures?.net ?? null
        })
        if (!inserted) return Option.none<string>()
        const entries = normalised(posting.entries)
        if (entries.length === 0) return Option.some(id)
        const after = yield* repo.addToBalances(posting.communityId, entries, postedAt)
        const rows = []
        for (const [index, change] of entries.entries()) {
          rows.push({
            id: yield* ids.next,
            communityId: posting.communityId,
            transactionId: id,
            kind: posting.kind,
            account: change.account,
            currency: change.currency,
            amount: change.amount,
            balanceAfter: after[index]!,
            postedAt
          })
        }
        yield* repo.insertEntries(rows)
        return Option.some(id)
      }))

    /** Moves one sale's net amount from pending to available; the caller holds the release row's lock. */
    const release = (row: ReleaseRow) =>
      Effect.gen(function*() {
        const key = `release:${row.saleTransactionId}`
        const posted = yield* post({
          communityId: row.communityId,
          kind: "release",
          key,
          reference: row.reference,
          description: row.description,
          occurredAt: row.releaseAt,
          entries: [
            entry("community_pending", row.currency, -row.amount),
            entry("community_available", row.currency, row.amount)
          ]
        })
        const transactionId = Option.isSome(posted)
          ? posted.value
          : yield* Effect.flatMap(repo.transactionIdByKey(row.communityId, key), Effect.fromNullable).pipe(Effect.orDie)
        yield* repo.markReleased(row, yield* now, transactionId)
      })

    const recordSale = traced("LedgerPosting.recordSale")(function*(sale: PaidSale) {
      yield* checkSale(sale)
      const a = sale.amounts
      // settled by the gateway into the community's own account: never pending, never paid out here
      const credited = sale.settledByGateway === true ? "community_gateway_settled" : "community_pending"
      yield* transactional(sql)(Effect.gen(function*() {
        const posted = yield* post({
          communityId: sale.communityId,
          kind: "sale",
          key: `sale:${sale.chargeId}`,
          paymentMethod: a.paymentMethod,
          figures: { currency: a.currency, gross: a.total, fee: a.fee, interest: a.interest, net: a.net },
          reference: sale.chargeId,
          description: sale.description,
          occurredAt: sale.paidAt,
          entries: [
            entry("buyer_payments", a.currency, -a.total),
            entry("platform_fees", a.currency, a.fee),
            entry("platform_interest", a.currency, a.interest),
            entry(credited, a.currency, a.net)
          ]
        })
        if (Option.isNone(posted) || a.net === 0 || credited !== "community_pending") return
        const row: ReleaseRow = {
          id: yield* ids.next,
          communityId: sale.communityId,
          saleTransactionId: posted.value,
          reference: sale.chargeId,
          description: sale.description,
          currency: a.currency,
          amount: a.net,
          releaseAt: new Date(sale.paidAt.getTime() + releaseAfterDays[a.paymentMethod] * DAY_MS)
        }
        yield* repo.insertRelease(row)
        // PIX (and a sale recorded late) is due at once; the row is ours until the transaction ends.
        if (row.releaseAt.getTime() <= (yield* now).getTime()) yield* release(row)
      }))
    })

    /** Posts every release of the community that is due; how many. Safe to run concurrently. */
    const releaseDue = traced("Ledger.releaseDue")(function*(communityId: CommunityId) {
      let released = 0
      while (true) {
        const at = yield* now
        if (!(yield* repo.hasDue(communityId, at))) return released
        const count = yield* transactional(sql)(
          repo.lockDue(communityId, at, RELEASE_BATCH).pipe(
            Effect.tap((rows) => Effect.forEach(rows, release, { discard: true })),
            Effect.map((rows) => rows.length)
          )
        )
        released += count
        if (count < RELEASE_BATCH) return released
      }
    })

    /** Posts due releases of every community, one batch (for a background job); how many. */
    const releaseAnyDue = traced("Ledger.releaseAnyDue")(function*(limit = RELEASE_BATCH) {
      const at = yield* now
      return yield* transactional(sql)(
        repo.lockAnyDue(at, limit).pipe(
          Effect.tap((rows) => Effect.forEach(rows, release, { discard: true })),
          Effect.map((rows) => rows.length)
        )
      )
    })

    /** What is left to refund of a charge's sale; locks the sale until the caller's transaction ends. */
    const refundable = (communityId: CommunityId, chargeId: string) =>
      Effect.map(
        repo.lockSaleRefunds(communityId, chargeId),
        (sale) => sale === undefined ? Option.none<number>() : Option.some(Math.max(0, sale.gross - sale.refunded))
      )

    const recordRefund = traced("LedgerPosting.recordRefund")(function*(refund: SaleRefund) {
      const share = refund.amount - refund.fee - refund.interest
      if (![refund.amount, refund.fee, refund.interest, share].every((v) => Number.isSafeInteger(v) && v >= 0)) {
        return yield* Effect.dieMessage(`LedgerPosting.recordRefund: inconsistent amounts ${JSON.stringify(refund)}`)
      }
      return yield* transactional(sql)(Effect.gen(function*() {
        // Pending first: what of this sale is still waiting for its release.
        const release = yield* repo.lockSaleRelease(refund.communityId, `sale:${refund.chargeId}`)
        // A sale the gateway settled to the community's own account is reversed there (Stripe
        // reverses the transfer): Roda's pending and available are untouched.
        const settled = release === undefined && (yield* repo.saleSettledByGateway(refund.communityId, refund.chargeId))
        const fromPending = release !== undefined && release.releasedAt === null ? Math.min(share, release.amount) : 0
        const fromAvailable = settled ? 0 : share - fromPending
        const posted = yield* post({
          communityId: refund.communityId,
          kind: "refund",
          key: `refund:${refund.refundId}`,
          figures: {
            currency: refund.currency,
            gross: refund.amount,
            fee: refund.fee,
            interest: refund.interest,
            net: share
          },
          reference: refund.chargeId,
          description: refund.description,
          occurredAt: refund.at,
          entries: [
            entry("buyer_payments", refund.currency, refund.amount),
            entry("community_pending", refund.currency, -fromPending),
            entry("platform_fees", refund.currency, -refund.fee),
            entry("platform_interest", refund.currency, -refund.interest),
            entry("community_available", refund.currency, -fromAvailable),
            entry("community_gateway_settled", refund.currency, settled ? -share : 0)
          ]
        })
        if (Option.isSome(posted) && fromPending > 0) {
          yield* repo.reduceRelease(refund.communityId, release!.id, fromPending)
        }
        return { fromPending, fromAvailable }
      }))
    })

    const settledByGateway = (communityId: CommunityId, chargeId: string) =>
      repo.saleSettledByGateway(communityId, chargeId)

    const recordDispute = traced("LedgerPosting.recordDispute")(function*(move: DisputeMove) {
      if (!Number.isSafeInteger(move.amount) || move.amount < 0) {
        return yield* Effect.dieMessage(`LedgerPosting.recordDispute: inconsistent amount ${JSON.stringify(move)}`)
      }
      const { amount, currency } = move
      const payer: LedgerAccount = move.move === "fee" && (yield* settledByGateway(move.communityId, move.chargeId))
        ? "community_gateway_settled"
        : "community_available"
      const entries = move.move === "hold"
        ? [entry("community_available", currency, -amount), entry("community_disputed", currency, amount)]
        : move.move === "release"
        ? [entry("community_disputed", currency, -amount), entry("community_available", currency, amount)]
        : [entry(payer, currency, -amount), entry("gateway_dispute_fees", currency, amount)]
      const posted = yield* post({
        communityId: move.communityId,
        kind: move.move === "hold" ? "dispute_hold" : move.move === "release" ? "dispute_release" : "dispute_fee",
        key: `dispute:${move.disputeId}:${move.move}`,
        reference: move.chargeId,
        description: move.description,
        occurredAt: move.at,
        entries
      })
      return Option.isSome(posted)
    })

    const payoutEntries = (move: PayoutMove): ReadonlyArray<BalanceChange> => {
      const { amount, currency, fee } = move
      switch (move.move) {
        case "request":
          return [
            entry("community_available", currency, -(amount + fee)),
            entry("community_in_transit", currency, amount),
            entry("platform_payout_fees", currency, fee)
          ]
        case "paid":
          return [entry("community_in_transit", currency, -amount), entry("payouts_sent", currency, amount)]
        case "return":
          return [
            entry("community_available", currency, amount + fee),
            entry("community_in_transit", currency, -amount),
            entry("platform_payout_fees", currency, -fee)
          ]
        case "bank_return":
          return [
            entry("community_available", currency, amount + fee),
            entry("platform_payout_fees", currency, -fee),
            entry("payouts_sent", currency, -amount)
          ]
      }
    }

    const recordPayout = traced("LedgerPosting.recordPayout")(function*(move: PayoutMove) {
      yield* post({
        communityId: move.communityId,
        kind: move.move === "request" ? "payout" : move.move === "paid" ? "payout_paid" : "payout_return",
        key: `payout:${move.payoutId}:${move.move}`,
        reference: move.payoutId,
        description: move.description,
        occurredAt: move.at,
        entries: payoutEntries(move)
      })
    })

    const lockAvailable = traced("LedgerPosting.lockAvailable")(function*(communityId: CommunityId, currency: string) {
      yield* releaseDue(communityId)
      return yield* repo.lockBalance(communityId, "community_available", currency)
    })

    const payoutBalances = traced("LedgerPosting.payoutBalances")(function*(communityId: CommunityId) {
      yield* releaseDue(communityId)
      const rows = yield* repo.balances(communityId, payoutBalanceAccounts)
      const of = (currency: string, account: LedgerAccount) =>
        rows.find((row) => row.currency === currency && row.account === account)?.balance ?? 0
      return [...new Set(rows.map((row) => row.currency))].sort().map((currency) => ({
        currency,
        pending: of(currency, "community_pending"),
        available: of(currency, "community_available"),
        inTransit: of(currency, "community_in_transit"),
        disputed: of(currency, "community_disputed"),
        settledByGateway: of(currency, "community_gateway_settled")
      }))
    })

    return {
      post,
      recordSale,
      releaseDue,
      releaseAnyDue,
      refundable,
      recordRefund,
      settledByGateway,
      recordDispute,
      recordPayout,
      lockAvailable,
      payoutBalances
    }
  }),
  dependencies: [LedgerRepo.Default]
}) {}
