import { Context, type Effect } from "effect"
import type { ReportRange } from "../sql/periods"

/** One period of the members report. */
export interface MemberPeriodRow {
  readonly period: string
  /** Profiles that joined in the period. */
  readonly joined: number
  /** Profiles removed in the period. */
  readonly left: number
  /** Members at the end of the period. */
  readonly total: number
}

/** Membership figures for reports (read contract; `communities` owns profiles). */
export class MemberStats extends Context.Tag("@roda/core/MemberStats")<MemberStats, {
  /** Joined, left and the running total per period (one SQL). */
  readonly series: (communityId: string, range: ReportRange) => Effect.Effect<ReadonlyArray<MemberPeriodRow>>
  /** Whether the profile belongs to the community (removed ones included). */
  readonly exists: (communityId: string, profileId: string) => Effect.Effect<boolean>
}>() {}
