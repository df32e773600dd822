import { Schema, Struct } from "effect"
import { Refund, Sale } from "../../commerce/checkout/PurchasesManageApi"
import { type Payloads, withCommunity } from "./payload"

/** A gateway dispute of a charge, as stored (no route shows disputes). */
const Dispute = {
  id: Schema.String.annotations({ description: "The gateway's dispute id" }),
  chargeId: Schema.String.annotations({ description: "The disputed charge (a checkout charge or a renewal billing)" }),
  purchaseId: Schema.NullOr(Schema.String).annotations({
    description: "The ONE_TIME sale disputed (`GET /api/manage/purchases`); null for a plan's charge"
  }),
  status: Schema.Literal("open", "won", "lost"),
  amount: Schema.Number,
  currency: Schema.String,
  held: Schema.Number.annotations({ description: "What the dispute holds of the available balance" }),
  fee: Schema.Number.annotations({ description: "The gateway's dispute fee, in `feeCurrency`" }),
  feeCurrency: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  openedAt: Schema.NullOr(Schema.String),
  closedAt: Schema.NullOr(Schema.String)
}

export const commercePayloads: Payloads = {
  "order.paid": {
    summary:
      "A ONE_TIME product was paid, by any method (the sale as `GET /api/manage/purchases` lists it; a plan's payment is its subscription's)",
    data: withCommunity(Sale.fields)
  },
  "order.refunded": {
    summary:
      "A sale was refunded, in part or in full, by the team or at the gateway (the sale after it, and `refund`: the refund as `POST /api/manage/purchases/{id}/refund` answers it, less `purchase`)",
    data: withCommunity({ ...Sale.fields, refund: Schema.Struct(Struct.omit(Refund.fields, "purchase")) })
  },
  "dispute.opened": {
    summary: "A buyer disputed a charge at the gateway (the dispute; the disputed money is held)",
    data: withCommunity(Dispute)
  },
  "dispute.closed": {
    summary: "A dispute closed `won` or `lost` (the dispute; a lost one was taken back as a chargeback)",
    data: withCommunity(Dispute)
  }
}
