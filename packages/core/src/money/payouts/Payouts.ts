import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { OperatorAudit } from "../../audit/OperatorAudit"
import { badRequest, conflict, fieldError, invalidField, notFound } from "../../domain/AppError"
import type { Account, Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { formatMoney } from "../../domain/Money"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requirePlatformAdmin, requireRole, requireVerifiedEmail } from "../../domain/Policy"
import { Notify } from "../../notifications/Notify"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import type { WebhookEventType } from "../../webhooks/eventTypes"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { SellingStatus } from "../accounts/SellingStatus"
import { LedgerPosting, type PayoutMove } from "../ledger/LedgerPosting"
import { payoutMessages as M } from "./messages"
import {
  allowedPayoutMoves,
  checkPayoutMove,
  payoutFee,
  payoutManagers,
  payoutReaders,
  type PayoutStatus
} from "./Policy"
import { type PayoutRow, PayoutsRepo } from "./Repo"

const PayoutCursor = Schema.Tuple(Uuid)

export interface PayoutQuery extends PageQuery {
  readonly status?: PayoutStatus | undefined
}

export interface PayoutRequest {
  readonly amount: number
  readonly currency?: string | undefined
}

/** The moves the community's webhooks hear of (a move not allowed fails before, so each is told once). */
const toldMoves: Partial<Record<PayoutStatus, WebhookEventType>> = { paid: "payout.paid", failed: "payout.failed" }

const iso = (date: Date | null) => date === null ? null : new Date(date).toISOString()

export const payoutView = (row: PayoutRow) => ({
  id: row.id,
  status: row.status,
  amount: row.amount,
  fee: row.fee,
  total: row.amount + row.fee,
  currency: row.currency,
  method: row.method,
  destination: row.destination,
  requestedBy: row.requestedBy,
  failureReason: row.failureReason,
  allowedMoves: allowedPayoutMoves(row.status),
  createdAt: iso(row.createdAt)!,
  inTransitAt: iso(row.inTransitAt),
  paidAt: iso(row.paidAt),
  failedAt: iso(row.failedAt),
  canceledAt: iso(row.canceledAt)
})

/**
 * Payouts (withdrawals of the available balance to the community's bank). A request checks the
 * approved payout settings, then, under the lock of the community's available balance row, that no
 * payout is open and that `amount + fee <= available`; the ledger moves the money to in transit in
 * the same transaction. The community cancels a pending payout; platform operators move it on
 * (in transit, paid, failed), and a failure returns the money to available.
 */
export class Payouts extends Effect.Service<Payouts>()("@roda/core/Payouts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* PayoutsRepo
    const ledger = yield* LedgerPosting
    const selling = yield* SellingStatus
    const ids = yield* Ids
    const audit = yield* OperatorAudit
    const webhooks = yield* WebhookEvents
    const notify = yield* Notify
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const transaction = transactional(sql)

    const found = (communityId: CommunityId, id: string, lock = false) =>
      orNotFound(M.notFound)(repo.byId(communityId, id.toLowerCase(), lock))

    const balance = traced("Payouts.balance")(function*(member: Member) {
      yield* requireRole(member, payoutReaders)
      const rows = yield* ledger.payoutBalances(member.communityId)
      if (rows.length > 0) {
        return rows.map((row) => ({ ...row, total: row.pending + row.available + row.inTransit + row.disputed }))
      }
      const currency = yield* selling.defaultCurrency(member.communityId)
      return [{ currency, pending: 0, available: 0, inTransit: 0, disputed: 0, total: 0, settledByGateway: 0 }]
    })

    const listOf = (communityId: CommunityId, query: PayoutQuery) =>
      Effect.gen(function*() {
        const page = yield* paginate(
          query,
          PayoutCursor,
          (after, limit) => repo.list(communityId, { status: query.status, before: after?.[0], limit }),
          (row) => [row.id]
        )
        return { items: page.items.map(payoutView), pagination: page.pagination }
      })

    const list = traced("Payouts.list")(function*(member: Member, query: PayoutQuery) {
      yield* requireRole(member, payoutReaders)
      return yield* listOf(member.communityId, query)
    })

    const existing = (communityId: CommunityId) =>
      Effect.gen(function*() {
        const community = communityId
        if (!(yield* repo.communityExists(community))) return yield* Effect.fail(notFound(M.communityNotFound))
        return community
      })

    /** A platform operator lists a community's payouts (`GET /api/admin/communities/{communityId}/payouts`). */
    const operatorList = traced("Payouts.operatorList")(
      function*(account: Account, communityId: CommunityId, query: PayoutQuery) {
        yield* requirePlatformAdmin(account)
        return yield* listOf(yield* existing(communityId), query)
      }
    )

    /** A platform operator reads one payout of a community (404 for an unknown community or another's payout). */
    const operatorDetail = traced("Payouts.operatorDetail")(
      function*(account: Account, communityId: CommunityId, id: string) {
        yield* requirePlatformAdmin(account)
        return payoutView(yield* found(yield* existing(communityId), id))
      }
    )

    /** A platform operator lists the payouts of every community, newest first (each with its `communityId`). */
    const platformList = traced("Payouts.platformList")(function*(account: Account, query: PayoutQuery) {
      yield* requirePlatformAdmin(account)
      const page = yield* paginate(
        query,
        PayoutCursor,
        (after, limit) => repo.listAll({ status: query.status, before: after?.[0], limit }),
        (row) => [row.id]
      )
      return {
        items: page.items.map((row) => ({ communityId: row.communityId, ...payoutView(row) })),
        pagination: page.pagination
      }
    })

    const detail = traced("Payouts.detail")(function*(member: Member, id: string) {
      yield* requireRole(member, payoutReaders)
      return payoutView(yield* found(member.communityId, id))
    })

    const post = (row: PayoutRow, move: PayoutMove["move"], at: Date) =>
      ledger.recordPayout({
        communityId: row.communityId,
        payoutId: row.id,
        move,
        currency: row.currency,
        amount: row.amount,
        fee: row.fee,
        at,
        description: `Saque ${formatMoney(row.amount, row.currency)}`
      })

    const request = traced("Payouts.request")(function*(member: Member, input: PayoutRequest) {
      yield* requireRole(member, payoutManagers)
      yield* requireVerifiedEmail(member.account)
      const { communityId } = member
      // Spec §7: no approved payout settings, no withdrawal.
      const approved = yield* selling.approvedPayout(communityId)
      if (Option.isNone(approved)) return yield* Effect.fail(badRequest(Messages.paymentNotConfigured))
      const currency = input.currency ?? (yield* selling.defaultCurrency(communityId))
      const fee = payoutFee(currency)
      const id = yield* ids.next
      return yield* transaction(Effect.gen(function*() {
        // Every request of the community waits here: the checks below run one at a time.
        const available = yield* ledger.lockAvailable(communityId, currency)
        if (yield* repo.open(communityId)) {
          return yield* Effect.fail(conflict(M.openPayout, [fieldError("amount", M.openPayout)]))
        }
        if (input.amount + fee > available) {
          return yield* Effect.fail(invalidField("amount", M.insufficient(available, currency)))
        }
        const at = yield* now
        const inserted = yield* repo.insert({
          id,
          communityId,
          currency,
          amount: input.amount,
          fee,
          status: "pending",
          method: approved.value.method,
          requestedBy: member.profileId,
          createdAt: at,
          updatedAt: at
        })
        // Another currency's request got in first (the index holds one open payout per community).
        if (!inserted) return yield* Effect.fail(conflict(M.openPayout, [fieldError("amount", M.openPayout)]))
        const row = yield* found(communityId, id)
        yield* post(row, "request", at)
        const requested = payoutView(row)
        yield* webhooks.emit(communityId, "payout.requested", requested)
        return requested
      }))
    })

    /**
     * Money leaves only for approved payout settings of the method the payout was requested with (spec §8:
     * withdrawing waits for the approval): settings edited after the request (no longer approved, or
     * approved again with another method) must be approved, or the payout canceled and asked again.
     * Answers where the approved settings send the money.
     */
    const approvedDestination = (row: PayoutRow) =>
      Effect.flatMap(selling.approvedPayout(row.communityId), (approved) => {
        if (Option.isSome(approved) && approved.value.method === row.method) {
          return Effect.succeed(approved.value.destination)
        }
        const text = M.settingsChanged(row.method, Option.getOrNull(Option.map(approved, (a) => a.method)))
        return Effect.fail(conflict(text, [fieldError("payoutSettings", text)]))
      })

    /**
     * One move of the machine, under the payout's row lock, with its ledger entries; the profile who
     * requested it is told (`payout_update`), unless they made the move.
     */
    const moveTo = (
      communityId: CommunityId,
      id: string,
      to: PayoutStatus,
      reason: string | null,
      actorProfileId: string | null
    ) =>
      transaction(Effect.gen(function*() {
        const row = yield* found(communityId, id, true)
        yield* checkPayoutMove(row.status, to)
        // Recorded as the money leaves: where it went stays on the payout whatever the settings become.
        const destination = to === "in_transit" ? yield* approvedDestination(row) : null
        const at = yield* now
        yield* repo.move(communityId, row.id, to, at, { reason, destination })
        if (to === "paid") yield* post(row, "paid", at)
        if (to === "canceled" || (to === "failed" && row.status !== "paid")) yield* post(row, "return", at)
        if (to === "failed" && row.status === "paid") yield* post(row, "bank_return", at)
        const moved = payoutView(yield* found(communityId, row.id))
        const told = toldMoves[to]
        if (told !== undefined) yield* webhooks.emit(communityId, told, moved)
        yield* notify.notify(communityId, {
          kind: "payout_update",
          recipients: [row.requestedBy],
          actorProfileId,
          subject: { type: "payout", id: row.id, title: formatMoney(row.amount, row.currency) }
        })
        return moved
      }))

    const cancel = traced("Payouts.cancel")(function*(member: Member, id: string) {
      yield* requireRole(member, payoutManagers)
      return yield* moveTo(member.communityId, id, "canceled", null, member.profileId)
    })

    /** A platform operator moves a payout on (`/api/admin/communities/{communityId}/payouts/{id}/…`). */
    const operate = traced("Payouts.operate")(
      function*(
        account: Account,
        communityId: CommunityId,
        id: string,
        to: "in_transit" | "paid" | "failed",
        reason?: string
      ) {
        yield* requirePlatformAdmin(account)
        const community = yield* existing(communityId)
        // The move and its audit row commit together (moveTo's own transaction nests as a savepoint).
        return yield* transaction(Effect.tap(
          moveTo(community, id, to, reason ?? null, null),
          (payout) =>
            audit.record({
              actor: account,
              action: `payout.${to}`,
              target: { type: "payout", id: payout.id },
              community,
              details: { amount: payout.amount, fee: payout.fee, currency: payout.currency, reason }
            })
        ))
      }
    )

    return { balance, list, detail, request, cancel, operate, operatorList, operatorDetail, platformList }
  }),
  dependencies: [PayoutsRepo.Default]
}) {}
