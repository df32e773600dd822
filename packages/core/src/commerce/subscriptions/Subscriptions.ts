import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { SubscriptionCancelling } from "./Cancelling"
import { SubscriptionListing } from "./Listing"
import { SubscriptionPayingNow } from "./PayingNow"
import { SubscriptionPlanChanges } from "./PlanChanges"
import { SubscriptionsRepo } from "./Repo"
import { makeKeyed } from "./requestKeys"
import { SubscriptionTeamTerms } from "./TeamTerms"

export type { TeamCancelInput } from "./Cancelling"
export type { PayNowInput } from "./PayingNow"
export type { ChangeTierInput } from "./PlanChanges"
export type { PageInput } from "./Reading"
export type { ManualInput } from "./TeamTerms"

/**
 * Subscriptions as members and the team see and move them: the feature's service, one use case per
 * file behind it (listing, cancelling, plan changes, paying now, the team's terms). Every move goes
 * through the transition table (`Policy.ts`) with the row locked; money and time go through
 * `SubscriptionLifecycle`. Members act on their own subscriptions only (another's is 404).
 */
export class Subscriptions extends Effect.Service<Subscriptions>()("@roda/core/Subscriptions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubscriptionsRepo
    const { billings, detail, exportCsv, list, mine, teamBillings, teamDetail, teamList } = yield* SubscriptionListing
    const { cancel, pause, reactivate, resume, teamCancel, teamReactivate } = yield* SubscriptionCancelling
    const {
      addOn,
      addOnQuote,
      changeTier,
      changeTierQuote,
      removeAddOn,
      removeScheduledChange,
      scheduledChange,
      teamAddOn
    } = yield* SubscriptionPlanChanges
    const { payNow } = yield* SubscriptionPayingNow
    const { extend, manual, removeDiscount, sendPaymentLink, setDiscount } = yield* SubscriptionTeamTerms
    return {
      keyed: makeKeyed(sql, repo),
      list,
      mine,
      detail,
      billings,
      cancel,
      reactivate,
      pause,
      resume,
      changeTierQuote,
      changeTier,
      scheduledChange,
      removeScheduledChange,
      addOnQuote,
      addOn,
      payNow,
      teamList,
      teamDetail,
      teamBillings,
      exportCsv,
      manual,
      teamCancel,
      teamReactivate,
      setDiscount,
      removeDiscount,
      teamAddOn,
      removeAddOn,
      extend,
      sendPaymentLink
    }
  }),
  dependencies: [
    SubscriptionsRepo.Default,
    SubscriptionListing.Default,
    SubscriptionCancelling.Default,
    SubscriptionPlanChanges.Default,
    SubscriptionPayingNow.Default,
    SubscriptionTeamTerms.Default
  ]
}) {}
