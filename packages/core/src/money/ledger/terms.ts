import type { Role } from "../../domain/Role"

/**
 * Ledger accounts, each kept per community and currency. Amounts are signed: a positive entry
 * increases what the account holds for its owner, a negative one decreases it, and the entries of
 * a transaction sum to zero per currency. `buyer_payments` is the gateway's clearing account (money
 * received from buyers, so it goes negative as the others fill up).
 */
export const ledgerAccounts = [
  "buyer_payments",
  "community_pending",
  "platform_fees",
  "platform_interest",
  "community_available",
  // Payouts (money/payouts): ranked after `community_available`, which a payout request locks first.
  "community_in_transit",
  "platform_payout_fees",
  "payouts_sent",
  // Disputes (held from available until they close) and sales the gateway settled to the community itself.
  "community_disputed",
  "gateway_dispute_fees",
  "community_gateway_settled"
] as const
export type LedgerAccount = typeof ledgerAccounts[number]

/**
 * The order postings lock balance rows in (the order of `ledgerAccounts`). A sale locks pending
 * before available even when its release is posted in the same database transaction, so a release
 * alone must lock pending first too: one order for everyone, no deadlock.
 */
export const lockRank = (account: LedgerAccount): number => ledgerAccounts.indexOf(account)

/** The accounts that are the community's money: what the statement shows unless asked otherwise. */
export const communityAccounts: ReadonlyArray<LedgerAccount> = ["community_pending", "community_available"]

/**
 * The community's money including what is on its way to its bank and what open disputes hold
 * (payout balance), and what the gateway settled to the community's own account (never paid out here).
 */
export const payoutBalanceAccounts: ReadonlyArray<LedgerAccount> = [
  "community_pending",
  "community_available",
  "community_in_transit",
  "community_disputed",
  "community_gateway_settled"
]

export const transactionKinds = [
  "sale",
  "release",
  "refund",
  "payout",
  "payout_paid",
  "payout_return",
  "dispute_hold",
  "dispute_release",
  "dispute_fee"
] as const
export type TransactionKind = typeof transactionKinds[number]

/** Who reads fees, simulations and the ledger: managers and the finance role. */
export const moneyReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]
