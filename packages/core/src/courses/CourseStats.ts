import { Context, type Effect } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import type { ReportRange } from "../sql/periods"

/** One period of the courses report. */
export interface CoursePeriodRow {
  readonly period: string
  readonly enrollments: number
  /** Lessons completed in the period. */
  readonly lessonCompletions: number
  /** Courses completed (the learner's last lesson of the course completed) in the period. */
  readonly completions: number
}

/** Course figures for reports (read contract; `courses` owns enrollments and progress). */
export class CourseStats extends Context.Tag("@roda/core/CourseStats")<CourseStats, {
  /** Per period (one SQL); `profileId` narrows it to one learner. */
  readonly series: (
    communityId: CommunityId,
    range: ReportRange,
    profileId?: ProfileId
  ) => Effect.Effect<ReadonlyArray<CoursePeriodRow>>
}>() {}
