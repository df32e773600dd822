import { Effect } from "effect"
import type { GatewayDispute } from "../../platform/PaymentGateway"
import { Subscribing } from "../subscriptions/Subscribing"
import { ChargeDisputes } from "./ChargeDisputes"
import type { ChargeRow } from "./Repo"
import { Settlement } from "./Settlement"

/**
 * Gateway disputes of checkout's charges (issue 52), through `ChargeDisputes` (the disputed money
 * held while open, released when won, the fee debited): a dispute lost is taken back as a
 * chargeback (a refund row of kind `chargeback`), and the first charge of a subscription lost so
 * ends its access.
 */
export class Disputes extends Effect.Service<Disputes>()("@roda/core/Disputes", {
  effect: Effect.gen(function*() {
    const disputes = yield* ChargeDisputes
    const settlement = yield* Settlement
    const subscribing = yield* Subscribing

    /** A dispute step of a paid charge (locked by the caller), in the caller's transaction; its status afterwards. */
    const fromGateway = (charge: ChargeRow, dispute: GatewayDispute) =>
      disputes.fromGateway(charge, dispute, (lost) =>
        Effect.gen(function*() {
          const posted = yield* settlement.gatewayRefund(charge.communityId, charge.id, {
            kind: "chargeback",
            amount: lost.amount,
            reference: lost.disputeId
          })
          // the first charge of a subscription lost in a dispute: its access ends
          if (charge.subscriptionGroupId !== null && posted > 0) yield* subscribing.chargeTakenBack(charge.id)
        }))

    return { fromGateway }
  })
}) {}
