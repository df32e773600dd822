import { Effect } from "effect"
import type { CommunityId } from "../../domain/Ids"
import type { Jobs } from "../../platform/Jobs"
import { UPCOMING_RENEWAL_DAYS } from "./Policy"

/** Job kinds of the subscription lifecycle (durable, `platform/Jobs.ts`). */
export const JobKind = {
  /** At a period end: renew, end (cancelAtPeriodEnd, courtesy), apply a scheduled change. */
  periodEnd: "subscriptions.period-end",
  /** A retry of a failed renewal (day 1, 3, 5, 7). */
  retry: "subscriptions.retry",
  /** A paused subscription's `pausedUntil`. */
  resume: "subscriptions.resume",
  /** The e-mail 7 days before an annual renewal. */
  remind: "subscriptions.remind",
  /** A manual subscription's first charge (`kind: charge`), at `startsAt`: the member gets a payment link. */
  firstCharge: "subscriptions.first-charge",
  /** A manual subscription still unpaid when its payment link ran out becomes `incomplete_expired`. */
  expireIncomplete: "subscriptions.expire-incomplete"
} as const

export interface PeriodJob {
  readonly communityId: CommunityId
  readonly subscriptionId: string
  /** ISO time the job was scheduled for; a job whose time no longer matches the row does nothing. */
  readonly at: string
}

export interface RetryJob {
  readonly communityId: CommunityId
  readonly subscriptionId: string
  readonly billingId: string
  /** 1..4: the retry of day 1, 3, 5, 7. */
  readonly attempt: number
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Schedules what happens at the end of the current period (keyed by subscription and period end,
 * so scheduling twice is once), and for annual plans the reminder 7 days before it.
 */
export const schedulePeriodEnd = (
  jobs: Jobs["Type"],
  row: {
    readonly communityId: CommunityId
    readonly id: string
    readonly currentPeriodEnd: Date
    readonly months: number
    readonly now: number
  }
) =>
  Effect.gen(function*() {
    const at = row.currentPeriodEnd.toISOString()
    const payload: PeriodJob = { communityId: row.communityId, subscriptionId: row.id, at }
    yield* jobs.enqueue({
      kind: JobKind.periodEnd,
      key: `${row.id}:${at}`,
      payload,
      runAt: row.currentPeriodEnd.getTime()
    })
    const remindAt = row.currentPeriodEnd.getTime() - UPCOMING_RENEWAL_DAYS * DAY_MS
    if (row.months >= 12 && remindAt > row.now) {
      yield* jobs.enqueue({ kind: JobKind.remind, key: `${row.id}:${at}`, payload, runAt: remindAt })
    }
  })

export const DAY_MILLIS = DAY_MS
