import { Context, type Effect } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import type { ReportRange } from "../sql/periods"

/** One period of the events report. */
export interface EventPeriodRow {
  readonly period: string
  /** Events that start in the period. */
  readonly events: number
  /** People who signed up (going or waitlisted, not cancelled) in the period. */
  readonly participants: number
  /** Check-ins in the period. */
  readonly attendance: number
}

/** Event figures for reports (read contract; `events` owns events and participants). */
export class EventStats extends Context.Tag("@roda/core/EventStats")<EventStats, {
  /** Per period (one SQL); `profileId` narrows it to one member (events = the ones they host). */
  readonly series: (
    communityId: CommunityId,
    range: ReportRange,
    profileId?: ProfileId
  ) => Effect.Effect<ReadonlyArray<EventPeriodRow>>
}>() {}
