import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { PaymentMethod } from "../../src/domain/Money"
import { CommunityId, Ledger, LedgerPosting, Pricing, type Roda } from "../../src/index"
import { query } from "../support/sql"

export const DAY = 24 * 60 * 60 * 1000

/** A clock stopped at `at`, so a posting can be made as if it were then. */
const stoppedClock = (at: Date): Clock.Clock => {
  const millis = at.getTime()
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
    currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
    sleep: () => Effect.void
  }
}

export interface SaleOptions {
  readonly method?: PaymentMethod
  readonly amount?: number
  readonly installments?: number
  readonly currency?: string
  readonly paidAt?: Date
  /** Record it as if the clock read this (default: now). */
  readonly postedAt?: Date
  readonly chargeId?: string
  readonly description?: string
  /** The gateway settled it into the community's own account (Stripe Connect destination charge). */
  readonly settledByGateway?: boolean
}

/**
 * A paid sale recorded through the real services: priced with `Pricing.price`, written with
 * `LedgerPosting.recordSale` (what checkout does). Returns the amounts and the charge id.
 */
export const recordSale = (roda: Roda, communityId: string, options: SaleOptions = {}) => {
  const chargeId = options.chargeId ?? `ch_${randomUUID()}`
  const program = Effect.gen(function*() {
    const pricing = yield* Pricing
    const ledger = yield* LedgerPosting
    const amounts = yield* pricing.price({
      communityId: CommunityId.make(communityId),
      amount: options.amount ?? 10000,
      currency: options.currency ?? "BRL",
      paymentMethod: options.method ?? "PIX",
      installments: options.installments ?? 1
    })
    yield* ledger.recordSale({
      communityId: CommunityId.make(communityId),
      chargeId,
      amounts,
      paidAt: options.paidAt ?? options.postedAt ?? new Date(),
      description: options.description ?? "Ingresso",
      settledByGateway: options.settledByGateway
    })
    return { chargeId, amounts }
  })
  return roda.runtime.runPromise(
    options.postedAt ? Effect.withClock(program, stoppedClock(options.postedAt)) : program
  )
}

/** A step of a gateway dispute of a recorded sale, as checkout's disputes post it (`LedgerPosting.recordDispute`). */
export const recordDispute = (
  roda: Roda,
  move: { communityId: string; chargeId: string; disputeId: string; move: "hold" | "release" | "fee"; amount: number }
) =>
  roda.runtime.runPromise(
    Effect.flatMap(LedgerPosting, (ledger) =>
      ledger.recordDispute({
        ...move,
        communityId: CommunityId.make(move.communityId),
        currency: "BRL",
        at: new Date(),
        description: `Disputa ${move.disputeId}`
      }))
  )

/** Posts due releases of every community (what a background job would run). */
export const releaseAnyDue = (roda: Roda) =>
  roda.runtime.runPromise(Effect.flatMap(Ledger, (ledger) => ledger.releaseAnyDue()))

/** Transactions of the community whose entries do not sum to zero in some currency. */
export const unbalancedTransactions = (roda: Roda, communityId: string) =>
  query(roda, (sql) =>
    sql`SELECT transaction_id, currency, sum(amount)::text AS total FROM ledger_entries
      WHERE community_id = ${communityId} GROUP BY transaction_id, currency HAVING sum(amount) <> 0`)

/** Entries of the community's transactions, by kind, oldest first. */
export const entriesOf = (roda: Roda, communityId: string) =>
  query<{ kind: string; account: string; currency: string; amount: string; reference: string }>(
    roda,
    (sql) =>
      sql`SELECT e.kind, e.account, e.currency, e.amount::text AS amount, t.reference FROM ledger_entries e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.community_id = ${communityId} ORDER BY e.seq`
  )

/** How many transactions of a kind the community has. */
export const transactionCount = async (roda: Roda, communityId: string, kind: string) => {
  const rows = await query<{ count: number }>(
    roda,
    (sql) =>
      sql`SELECT count(*)::int AS count FROM ledger_transactions WHERE community_id = ${communityId} AND kind = ${kind}`
  )
  return rows[0]!.count
}
