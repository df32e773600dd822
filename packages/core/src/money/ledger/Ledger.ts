import { Effect, Option, Schema } from "effect"
import { invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { rangeEnd, rangeStart } from "../../domain/DateRange"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { traced } from "../../platform/traced"
import { SellingStatus } from "../accounts/SellingStatus"
import { Journal } from "./Journal"
import { LedgerRepo, type StatementRow } from "./LedgerRepo"
import { ledgerMessages } from "./messages"
import { communityAccounts, type LedgerAccount, moneyReaders, type TransactionKind } from "./terms"

export interface StatementQuery extends PageQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly kind?: TransactionKind | undefined
  readonly account?: LedgerAccount | undefined
  readonly currency?: string | undefined
}

/** The statement is listed newest first; the cursor is the last entry's sequence number. */
const StatementCursor = Schema.Tuple(Schema.String.pipe(Schema.pattern(/^\d{1,18}$/)))

const lineView = (row: StatementRow) => ({
  id: row.id,
  transactionId: row.transactionId,
  kind: row.kind,
  account: row.account,
  amount: row.amount,
  currency: row.currency,
  balance: row.balanceAfter,
  reference: row.reference,
  description: row.description,
  occurredAt: row.occurredAt.toISOString(),
  postedAt: row.postedAt.toISOString()
})

/** What the balance shows: the community's money, what open disputes hold, what the gateway settled to it. */
const balanceAccounts: ReadonlyArray<LedgerAccount> = [
  ...communityAccounts,
  "community_disputed",
  "community_gateway_settled"
]

/** The community's statement and balances; releases that fell due are posted before each read. */
export class Ledger extends Effect.Service<Ledger>()("@roda/core/Ledger", {
  effect: Effect.gen(function*() {
    const repo = yield* LedgerRepo
    const journal = yield* Journal
    // The community currency comes from money/accounts; an embedding without it sells in BRL.
    const sellingStatus = yield* Effect.serviceOption(SellingStatus)

    const statement = traced("Ledger.statement")(function*(member: Member, query: StatementQuery) {
      yield* requireRole(member, moneyReaders)
      const from = query.from === undefined ? undefined : rangeStart(query.from)
      const until = query.to === undefined ? undefined : rangeEnd(query.to)
      if (from !== undefined && until !== undefined && from.getTime() >= until.getTime()) {
        return yield* Effect.fail(invalidField("to", ledgerMessages.periodOrder, "query"))
      }
      const page = yield* paginate(
        query,
        StatementCursor,
        (after, limit) =>
          Effect.zipRight(
            journal.releaseDue(member.communityId),
            repo.statement(member.communityId, {
              accounts: query.account ? [query.account] : communityAccounts,
              kind: query.kind,
              currency: query.currency,
              from,
              until,
              beforeSeq: after?.[0],
              limit
            })
          ),
        (row) => [String(row.seq)]
      )
      return { items: page.items.map(lineView), pagination: page.pagination }
    })

    const balance = traced("Ledger.balance")(function*(member: Member) {
      yield* requireRole(member, moneyReaders)
      yield* journal.releaseDue(member.communityId)
      const rows = yield* repo.balances(member.communityId, balanceAccounts)
      const currencies = new Set(rows.map((row) => row.currency))
      if (currencies.size === 0) {
        currencies.add(
          Option.isSome(sellingStatus) ? yield* sellingStatus.value.defaultCurrency(member.communityId) : "BRL"
        )
      }
      const of = (currency: string, account: LedgerAccount) =>
        rows.find((row) => row.currency === currency && row.account === account)?.balance ?? 0
      return [...currencies].sort().map((currency) => {
        const pending = of(currency, "community_pending")
        const available = of(currency, "community_available")
        return {
          currency,
          pending,
          available,
          total: pending + available,
          disputed: of(currency, "community_disputed"),
          settledByGateway: of(currency, "community_gateway_settled")
        }
      })
    })

    return {
      statement,
      balance,
      /** Posts the community's due releases (reads do it first; a job may too). */
      releaseDue: journal.releaseDue,
      /** Posts one batch of due releases across communities, for a background job. */
      releaseAnyDue: journal.releaseAnyDue
    }
  }),
  dependencies: [LedgerRepo.Default, Journal.Default]
}) {}
