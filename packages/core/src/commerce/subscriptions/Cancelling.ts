import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { badRequest, conflict, fieldError, invalidField } from "../../domain/AppError"
import { type Member } from "../../domain/Caller"
import { requireRole } from "../../domain/Policy"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Jobs } from "../../platform/Jobs"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { unusedPart } from "./billing"
import { CHARGE_RECONCILE_AFTER_MS } from "./Charging"
import { SubscriptionEvents } from "./Events"
import { SubscriptionLifecycle } from "./Lifecycle"
import { subscriptionMessages as M } from "./messages"
import { moveCheck } from "./moves"
import { allowedMoves, phaseOf, teamActors } from "./Policy"
import { SubscriptionReading } from "./Reading"
import { SubscriptionRefunds } from "./Refunding"
import { type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { JobKind } from "./schedule"

export interface TeamCancelInput {
  readonly when: "now" | "period_end"
  readonly refund?: "none" | "prorated" | "full" | undefined
}

/**
 * Ending and holding subscriptions: the member's cancel (at the period end), reactivate, pause and
 * resume; the team's cancel (now, with an optional refund, or at the period end) and reactivate.
 */
export class SubscriptionCancelling
  extends Effect.Service<SubscriptionCancelling>()("@roda/core/SubscriptionCancelling", {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* SubscriptionsRepo
      const life = yield* SubscriptionLifecycle
      const refunds = yield* SubscriptionRefunds
      const reading = yield* SubscriptionReading
      const events = yield* SubscriptionEvents
      const jobs = yield* Jobs
      const ledger = yield* LedgerPosting
      const now = life.now
      const tx = transactional(sql)
      const { own, anyOf, reread, teamViewOf } = reading

      /** Active: ends at the period end (flag). Past due, unpaid, paused, incomplete: ends now. */
      const cancelRow = (row: SubscriptionRow) =>
        Effect.gen(function*() {
          yield* moveCheck(row, "cancel")
          const at = yield* now
          if (row.status === "active") {
            yield* repo.update(row.id, { cancelAtPeriodEnd: true, scheduledProductId: null, scheduledPrice: null }, at)
            yield* life.mailMember(
              row,
              "subscription-canceled",
              `Cancelamento agendado: ${row.productTitle} / Cancellation scheduled: ${row.productTitle}`,
              `Sua assinatura ${row.productTitle} termina em ${row.currentPeriodEnd?.toISOString()}; até lá o acesso continua.\n` +
                `Your ${row.productTitle} subscription ends on ${row.currentPeriodEnd?.toISOString()}; access goes on until then.`
            )
            return "scheduled" as const
          }
          yield* life.end(row, at)
          return "ended" as const
        })

      const cancel = traced("Subscriptions.cancel")(function*(member: Member, id: string) {
        return yield* tx(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          const outcome = yield* cancelRow(row)
          return { outcome, subscription: yield* reread(row) }
        }))
      })

      const reactivateRow = (row: SubscriptionRow) =>
        Effect.gen(function*() {
          yield* moveCheck(row, "reactivate")
          yield* repo.update(row.id, { cancelAtPeriodEnd: false }, yield* now)
          return yield* reread(row)
        })

      const reactivate = traced("Subscriptions.reactivate")(function*(member: Member, id: string) {
        return yield* tx(Effect.flatMap(own(member, id, true), reactivateRow))
      })

      const pause = traced("Subscriptions.pause")(
        function*(member: Member, id: string, input: { readonly resumeAt?: string | undefined }) {
          return yield* tx(Effect.gen(function*() {
            const row = yield* own(member, id, true)
            yield* moveCheck(row, "pause")
            const at = yield* now
            const resumeAt = input.resumeAt === undefined ? null : new Date(input.resumeAt)
            if (resumeAt !== null && resumeAt.getTime() <= at.getTime()) {
              return yield* Effect.fail(invalidField("resumeAt", M.futureRequired))
            }
            const remaining = Math.max(0, Math.floor(((row.currentPeriodEnd?.getTime() ?? 0) - at.getTime()) / 1000))
            const viewed = yield* repo.updateViewed(row.id, {
              status: "paused",
              pausedUntil: resumeAt,
              pausedRemainingSeconds: remaining,
              scheduledProductId: null,
              scheduledPrice: null
            }, at)
            yield* events.emit(viewed, "subscription.paused")
            yield* life.accessUntil(row, at)
            if (resumeAt !== null) {
              yield* jobs.enqueue({
                kind: JobKind.resume,
                key: `${row.id}:${resumeAt.toISOString()}`,
                payload: { communityId: row.communityId, subscriptionId: row.id, at: resumeAt.toISOString() },
                runAt: resumeAt.getTime()
              })
            }
            return yield* reread(row)
          }))
        }
      )

      const resume = traced("Subscriptions.resume")(function*(member: Member, id: string) {
        return yield* tx(Effect.gen(function*() {
          const row = yield* own(member, id, true)
          yield* moveCheck(row, "resume")
          yield* life.resume(row)
          return yield* reread(row)
        }))
      })

      /** What a cancel with refund gives back of the last paid period (its unused part, or all of it). */
      const refundOfLastPeriod = (row: SubscriptionRow, kind: "prorated" | "full", at: Date) =>
        Effect.gen(function*() {
          const found = yield* repo.lastPaidPeriodBilling(row.communityId, row.id)
          if (Option.isNone(found)) return Option.none()
          const billing = found.value
          // The ledger also counts refunds made elsewhere (the team's refund of the first purchase).
          const inLedger = yield* ledger.refundable(row.communityId, billing.id)
          const left = Math.min(billing.amount - billing.refundedAmount, Option.getOrElse(inLedger, () => Infinity))
          const wanted = kind === "full"
            ? left
            : Math.min(left, unusedPart(billing.amount, billing.periodStart!, billing.periodEnd!, at))
          return wanted > 0 ? Option.some({ billing, amount: wanted }) : Option.none()
        })

      /**
       * The team's cancel. Now with a refund, no network call inside a transaction: the refund is
       * written `pending` (the move checked, the row locked), the gateway is asked (the refund id is
       * its idempotency key), and the answer applied in a new transaction: the refund posted and the
       * subscription ended together, or, refused, nothing changes (400). A crash in between is
       * finished by the refund job (`subscriptions.refund`, 10 minutes later).
       */
      const teamCancel = traced("Subscriptions.teamCancel")(
        function*(member: Member, id: string, input: TeamCancelInput) {
          yield* requireRole(member, teamActors)
          const refund = input.refund ?? "none"
          if (input.when === "period_end" && refund !== "none") {
            return yield* Effect.fail(invalidField("refund", M.refundOnlyNow))
          }
          const first = yield* tx(Effect.gen(function*() {
            const row = yield* anyOf(member, id, true)
            if (input.when === "period_end") {
              yield* cancelRowAtEnd(row)
              return { done: { refunded: 0, subscription: yield* teamViewOf(member, id) } }
            }
            yield* moveCheck(row, "cancel_now")
            const at = yield* now
            const wanted = refund === "none" ? Option.none() : yield* refundOfLastPeriod(row, refund, at)
            if (Option.isNone(wanted)) {
              yield* life.end(row, at)
              return { done: { refunded: 0, subscription: yield* teamViewOf(member, id) } }
            }
            const refundId = yield* refunds.reserveRefund(row, wanted.value.billing, {
              amount: wanted.value.amount,
              reason: `team cancel (${refund})`,
              endsSubscription: true
            }, at.getTime() + CHARGE_RECONCILE_AFTER_MS)
            return { refundId, amount: wanted.value.amount }
          }))
          if ("done" in first) return first.done
          const status = yield* refunds.completeRefund(member.communityId, first.refundId)
          if (status === "failed") return yield* Effect.fail(badRequest(M.declined))
          return { refunded: first.amount, subscription: yield* tx(teamViewOf(member, id)) }
        }
      )

      /** The team's cancel at period end: only an active subscription not already marked. */
      const cancelRowAtEnd = (row: SubscriptionRow) => {
        const phase = phaseOf(row)
        if (phase === "active") return Effect.asVoid(cancelRow(row))
        const message = M.moveRefused(phase, "cancel (period_end)", allowedMoves(phase))
        return Effect.fail(conflict(message, [fieldError("status", message)]))
      }

      const teamReactivate = traced("Subscriptions.teamReactivate")(function*(member: Member, id: string) {
        yield* requireRole(member, teamActors)
        return yield* tx(Effect.gen(function*() {
          yield* reactivateRow(yield* anyOf(member, id, true))
          return yield* teamViewOf(member, id)
        }))
      })

      return { cancel, reactivate, pause, resume, teamCancel, teamReactivate }
    }),
    dependencies: [
      SubscriptionsRepo.Default,
      SubscriptionLifecycle.Default,
      SubscriptionRefunds.Default,
      SubscriptionReading.Default,
      SubscriptionEvents.Default
    ]
  })
{}
