import { Context, type Effect } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import type { ReportRange } from "../sql/periods"

/** One period of the engagement report. */
export interface EngagementPeriodRow {
  readonly period: string
  /** Status and content posts. */
  readonly posts: number
  readonly comments: number
  readonly reactions: number
  /** Distinct members who posted, commented or reacted. */
  readonly activeMembers: number
}

/** Engagement figures for reports (read contract; `social` owns posts, comments and reactions). */
export class EngagementStats extends Context.Tag("@roda/core/EngagementStats")<EngagementStats, {
  /** Per period (one SQL); `profileId` narrows it to one member's own activity. */
  readonly series: (
    communityId: CommunityId,
    range: ReportRange,
    profileId?: ProfileId
  ) => Effect.Effect<ReadonlyArray<EngagementPeriodRow>>
}>() {}
