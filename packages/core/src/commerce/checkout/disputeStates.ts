import type { GatewayDispute } from "../../platform/PaymentGateway"

/** A gateway dispute of a sale as Roda keeps it: `open` (money held), then `won` or `lost` (final). */
export type DisputeStatus = "open" | "won" | "lost"

/** What one step does, in this order, in the event's transaction. */
export type DisputeEffect =
  /** The disputed amount from available to disputed (nothing for a sale the gateway settled to the community). */
  | "hold"
  /** What the dispute held back to available. */
  | "release"
  /** The disputed amount taken back from the community as a chargeback (refund row of kind `chargeback`). */
  | "chargeback"
  /** The dispute fee the gateway charged, from the community's available balance. */
  | "fee"
  /** The owners e-mailed and the `dispute.opened` webhook written (`dispute.closed` for `mailClosed`). */
  | "mailOpened"
  | "mailClosed"

export interface DisputeTransition {
  readonly to: DisputeStatus
  readonly effects: ReadonlyArray<DisputeEffect>
}

type Step = GatewayDispute["step"]

const stay = (status: DisputeStatus): Record<Step, DisputeTransition> => ({
  opened: { to: status, effects: [] },
  won: { to: status, effects: [] },
  lost: { to: status, effects: [] }
})

/**
 * Every move of a dispute, from no row yet (`none`). Events may come out of order or twice: a close
 * seen first books the outcome without a hold, and the late `opened` then changes nothing; a
 * repeated step changes nothing; `won` and `lost` are final (an appeal after a loss is not followed).
 */
export const disputeTransitions: Record<DisputeStatus | "none", Record<Step, DisputeTransition>> = {
  none: {
    opened: { to: "open", effects: ["hold", "mailOpened"] },
    won: { to: "won", effects: ["fee", "mailClosed"] },
    lost: { to: "lost", effects: ["chargeback", "fee", "mailClosed"] }
  },
  open: {
    opened: { to: "open", effects: [] },
    won: { to: "won", effects: ["release", "fee", "mailClosed"] },
    lost: { to: "lost", effects: ["release", "chargeback", "fee", "mailClosed"] }
  },
  won: stay("won"),
  lost: stay("lost")
}

export const disputeTransition = (from: DisputeStatus | "none", step: Step): DisputeTransition =>
  disputeTransitions[from][step]
