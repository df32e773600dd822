import { Schema } from "effect"
import { TeamSubscription } from "../../commerce/subscriptions/ManageSubscriptionsApi"
import { type Payloads, withCommunity } from "./payload"

const subscription = withCommunity(TeamSubscription.fields)

export const subscriptionPayloads: Payloads = {
  "subscription.created": {
    summary:
      "A subscription started: its first charge paid (a checkout, or a manual one paid), or a courtesy granted (the subscription as its team detail route answers it)",
    data: subscription
  },
  "subscription.renewed": {
    summary: "A subscription's renewal was paid: at the period end, on a retry or by pay-now (the subscription)",
    data: subscription
  },
  "subscription.past_due": {
    summary:
      "A subscription's renewal charge failed: it is `past_due`, retried on days 1, 3, 5 and 7 (the subscription)",
    data: subscription
  },
  "subscription.canceled": {
    summary:
      "A subscription ended (final `canceled`): at the period end after a cancel, at once by the team, or its charge taken back (the subscription, with `canceledAt`)",
    data: subscription
  },
  "subscription.paused": {
    summary: "A subscription was paused (the subscription, with `pausedUntil` when it resumes by itself)",
    data: subscription
  },
  "subscription.resumed": {
    summary: "A paused subscription was resumed, by the member or at `pausedUntil` (the subscription)",
    data: subscription
  },
  "subscription.plan_changed": {
    summary:
      "A subscription moved to another option of its plan: an upgrade paid now, or a scheduled change at the period end (the subscription, and `previousProductId`)",
    data: withCommunity({ ...TeamSubscription.fields, previousProductId: Schema.String })
  }
}
