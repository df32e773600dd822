import { Context, type Effect } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { GatewayDispute } from "../../platform/PaymentGateway"
import type { DisputeStatus } from "./disputeStates"

/** A paid charge a gateway dispute is about, as the feature that sold it knows it. */
export interface DisputedCharge {
  readonly communityId: CommunityId
  /** The charge's id in the ledger (its sale's reference): a checkout charge or a subscription billing. */
  readonly id: string
  readonly currency: string
}

/** A dispute lost: what to take back of the seller, as the seller's feature posts chargebacks. */
export interface LostDispute {
  /** The disputed amount, in the charge's currency. */
  readonly amount: number
  /** The gateway's dispute id: the chargeback's reference. */
  readonly disputeId: string
}

/**
 * Gateway disputes of paid charges (contract; `commerce/checkout` owns the `disputes` table and
 * implements it in `ChargeDisputesLive`), for every feature that sells through the gateway (checkout's
 * charges, subscriptions' renewal billings). Each dispute moves through `disputeStates` under its
 * row lock, in the caller's transaction (the event's), with the charge locked by the caller, and
 * books what the move says once, whatever the order or repetition of the gateway's events: the
 * disputed amount held from the community's available balance while it is open (a payout cannot
 * take it; nothing for a sale the gateway settled to the community's own account), released when
 * won, and when lost released and taken back by `takeBack` (the caller's chargeback, posted as its
 * feature posts refunds), with the gateway's dispute fee debited; the community's owners get
 * `dispute.opened` / `dispute.closed` e-mails and the community's webhooks get the same events (outbox).
 */
export class ChargeDisputes extends Context.Tag("@roda/core/ChargeDisputes")<ChargeDisputes, {
  /** One step the gateway reported of a dispute of `charge`; the dispute's status afterwards. */
  readonly fromGateway: <E = never>(
    charge: DisputedCharge,
    dispute: GatewayDispute,
    takeBack: (lost: LostDispute) => Effect.Effect<void, E>
  ) => Effect.Effect<DisputeStatus, E>
}>() {}
