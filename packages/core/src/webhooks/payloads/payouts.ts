import { Payout } from "../../money/payouts/Api"
import { type Payloads, withCommunity } from "./payload"

export const payoutPayloads: Payloads = {
  "payout.requested": {
    summary: "The community requested a payout (the payout as its detail route answers it)",
    data: withCommunity(Payout.fields)
  },
  "payout.paid": {
    summary: "A payout was paid: the money reached the community's account (the payout)",
    data: withCommunity(Payout.fields)
  },
  "payout.failed": {
    summary: "A payout failed, or a paid one came back from the bank: the money is available again (the payout)",
    data: withCommunity(Payout.fields)
  }
}
