import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { badRequest, notFound } from "../../domain/AppError"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { Subscribing } from "../subscriptions/Subscribing"
import { Disputes } from "./Disputes"
import { LateRefunds } from "./LateRefunds"
import { checkoutMessages as M } from "./messages"
import { CheckoutRepo } from "./Repo"
import { Settlement } from "./Settlement"

/** The gateway's notifications about charges (the facade `Checkout` offers them as `webhook`). */
export class CheckoutWebhooks extends Effect.Service<CheckoutWebhooks>()("@roda/core/CheckoutWebhooks", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CheckoutRepo
    const gateway = yield* PaymentGateway
    const settlement = yield* Settlement
    const subscribing = yield* Subscribing
    const lateRefunds = yield* LateRefunds
    const disputes = yield* Disputes
    const transaction = transactional(sql)

    /**
     * A gateway notification: verified by the gateway layer, handled once per event id (the id is
     * stored in the same transaction as the effect, so the answer is 2xx only once both are
     * committed, and a retried delivery after a failure is handled again). Events may arrive in any
     * order: a refund or a lost dispute of a charge still pending here settles the sale first. An
     * event about a subscription's own charge (a renewal billing) goes to subscriptions; one about a
     * charge nobody here knows is, at a gateway shared with other systems (`foreignChargesExist`),
     * acknowledged and recorded as ignored. A payment of a charge already over here (expired,
     * failed, canceled) is refunded automatically (`LateRefunds`), the gateway asked after the commit.
     */
    const webhook = traced("Checkout.webhook")(
      function*(gatewayName: string, headers: Readonly<Record<string, string | undefined>>, body: string) {
        if (gatewayName !== gateway.name) return yield* Effect.fail(notFound(M.unknownGateway))
        const parsed = yield* gateway.parseWebhook(headers, body)
        if (Option.isNone(parsed)) return yield* Effect.fail(badRequest(M.webhookInvalid))
        const event = parsed.value
        const answer = (chargeId: string | null, status: string | null, ignored = false) => ({
          eventId: event.eventId,
          duplicate: false,
          chargeId,
          status,
          ignored
        })
        const handled = yield* transaction(Effect.gen(function*() {
          if (!(yield* repo.recordEvent(gateway.name, event.eventId))) {
            return { answer: { ...answer(null, null), duplicate: true }, lateRefund: null, communityId: "" }
          }
          const ignore = Effect.as(repo.markEventIgnored(gateway.name, event.eventId), {
            answer: answer(null, null, true),
            lateRefund: null,
            communityId: ""
          })
          if (event.type === "other") return yield* ignore
          const found = yield* repo.chargeAtGateway(gateway.name, event.gatewayChargeId, event.chargeId)
          if (Option.isNone(found)) {
            const billing = yield* subscribing.gatewayEvent(event)
            if (Option.isSome(billing)) {
              return { answer: answer(null, billing.value), lateRefund: null, communityId: "" }
            }
            if (gateway.foreignChargesExist === true) return yield* ignore
            return yield* Effect.fail(notFound(M.chargeNotFound))
          }
          const row = found.value
          const paid = {
            _tag: "Paid",
            gatewayChargeId: event.gatewayChargeId,
            ...(event.settledTo === undefined ? {} : { settledTo: event.settledTo })
          } as const
          let lateRefund: string | null = null
          if (event.type === "charge.paid") {
            if (row.status === "expired" || row.status === "failed") lateRefund = yield* lateRefunds.reserve(row)
            else yield* settlement.applyOutcome(row.communityId, row.id, paid)
          }
          if (event.type === "charge.expired" && row.status === "pending") {
            if (row.submittedAt === null) {
              yield* settlement.applyOutcome(row.communityId, row.id, { ...paid, _tag: "Failed", reason: "canceled" })
            } else yield* settlement.expire(row)
          }
          if (event.type === "charge.refunded" || event.type === "charge.dispute_lost") {
            yield* settlement.applyOutcome(row.communityId, row.id, paid)
            const posted = yield* settlement.gatewayRefund(row.communityId, row.id, {
              kind: event.type === "charge.refunded" ? "refund" : "chargeback",
              amount: event.amount ?? 0,
              reference: event.eventId
            })
            // the first charge of a subscription given back (in full, or a lost dispute): its access ends
            const takenBack = event.type === "charge.dispute_lost" || (event.amount ?? 0) >= row.total
            if (row.subscriptionGroupId !== null && posted > 0 && takenBack) {
              yield* subscribing.chargeTakenBack(row.id)
            }
          }
          if (event.type === "charge.dispute" && event.dispute !== undefined) {
            yield* settlement.applyOutcome(row.communityId, row.id, paid)
            yield* disputes.fromGateway(yield* settlement.chargeRow(row.communityId, row.id), event.dispute)
          }
          const after = yield* settlement.chargeRow(row.communityId, row.id)
          return { answer: answer(row.id, after.status), lateRefund, communityId: row.communityId }
        }))
        if (handled.lateRefund !== null) {
          // the event is kept either way: a gateway failure here is retried by the refund's job
          yield* Effect.ignore(Effect.catchAllDefect(
            lateRefunds.complete(handled.communityId, handled.lateRefund),
            () => Effect.void
          ))
        }
        return handled.answer
      }
    )
    return { webhook }
  }),
  dependencies: [CheckoutRepo.Default, LateRefunds.Default, Disputes.Default]
}) {}
