import { Schema } from "effect"
import { CommunityId, ProfileId, SpaceId } from "../domain/Ids"

/**
 * Contract (courses -> whoever listens): when a learner has recorded progress as completed on every
 * lesson of a course, courses enqueues a durable job of this kind (`platform/Jobs.ts`, keyed by course
 * and profile, in the request's work). Certificates handles it (automatic issuing); a handler must be
 * idempotent, since a learner may complete a course again.
 */
export const COURSE_COMPLETED_JOB = "courses.completed"

export const CourseCompleted = Schema.Struct({
  communityId: CommunityId,
  spaceId: SpaceId,
  courseId: Schema.String,
  profileId: ProfileId
})
export type CourseCompleted = typeof CourseCompleted.Type
