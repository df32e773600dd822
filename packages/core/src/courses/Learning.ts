import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { badRequest, conflict, fieldError, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { Messages } from "../domain/Messages"
import { isStaff } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { traced } from "../platform/traced"
import { atomic } from "../sql/transaction"
import { Access, viewerOfMember } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { COURSE_COMPLETED_JOB, type CourseCompleted } from "./CourseCompleted"
import { CurriculumRepo } from "./CurriculumRepo"
import { LearningRepo } from "./LearningRepo"
import { courseMessages as M } from "./messages"
import { release } from "./Policy"
import { CoursesRepo } from "./Repo"
import { completionView, enrollmentView, progressView } from "./view"

export interface ProgressInput {
  readonly completed?: boolean | undefined
  readonly percent?: number | undefined
  readonly lastPositionSeconds?: number | undefined
}

/**
 * Learners: enrollment in published courses and progress on lessons. The learner is the acting
 * profile (X-ProfileId when staff act for someone), the access decision is the caller's.
 */
export class Learning extends Effect.Service<Learning>()("@roda/core/Learning", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* LearningRepo
    const courses = yield* CoursesRepo
    const curriculum = yield* CurriculumRepo
    const access = yield* Access
    const ids = yield* Ids
    const jobs = yield* Jobs
    const webhooks = yield* WebhookEvents

    const findCourse = (member: Member, id: string) =>
      orNotFound(Messages.courseNotFound)(courses.find(member.communityId, id.trim().toLowerCase()))

    /** Spec §3: only a published course accepts enrollments (409); the space's content must be readable. */
    const enroll = traced("Learning.enroll")(function*(member: Member, courseId: string) {
      const id = courseId.trim().toLowerCase()
      // Share-locked: a move back to draft, or a removal, waits for this enrollment (or comes first).
      const course = yield* orNotFound(Messages.courseNotFound)(courses.findShared(member.communityId, id))
      if (course.status !== "published") return yield* Effect.fail(conflict(M.courseNotPublished))
      yield* access.readContent(viewerOfMember(member), course.spaceId)
      const inserted = yield* repo.enroll({
        id: yield* ids.next,
        communityId: member.communityId,
        courseId: course.id,
        profileId: member.actingProfileId,
        enrolledAt: new Date(yield* Clock.currentTimeMillis)
      })
      if (Option.isSome(inserted)) {
        const enrollment = enrollmentView(inserted.value)
        yield* webhooks.emit(member.communityId, "enrollment.created", enrollment)
        return { ...enrollment, alreadyEnrolled: false as const }
      }
      const existing = yield* orNotFound(Messages.courseNotFound)(
        repo.enrollment(member.communityId, course.id, member.actingProfileId)
      )
      return { ...enrollmentView(existing), alreadyEnrolled: true as const }
    }, atomic(sql))

    const progress = traced("Learning.progress")(function*(
      member: Member,
      courseId: string,
      lessonId: string,
      input: ProgressInput
    ) {
      if (input.completed === undefined && input.percent === undefined && input.lastPositionSeconds === undefined) {
        return yield* Effect.fail(badRequest(M.progressEmpty, [fieldError("body", M.progressEmpty)]))
      }
      const course = yield* findCourse(member, courseId)
      const staff = isStaff(member.role)
      const lesson = yield* orNotFound(M.lessonNotFound)(
        curriculum.findLesson(member.communityId, lessonId.toLowerCase())
      )
      if (lesson.courseId !== course.id) return yield* Effect.fail(notFound(M.lessonNotFound))
      yield* access.readContent(viewerOfMember(member), course.spaceId)
      const enrollment = yield* repo.lockEnrollment(member.communityId, course.id, member.actingProfileId)
      if (Option.isNone(enrollment)) return yield* Effect.fail(conflict(M.enrollmentRequired))
      const now = yield* Clock.currentTimeMillis
      const drip = release(lesson.releaseAfterDays, enrollment.value.enrolledAt, now, staff)
      if (drip.locked) {
        return yield* Effect.fail(conflict(M.lessonLocked(drip.availableAt?.toISOString() ?? "")))
      }
      const percent = input.percent ?? (input.completed === true ? 100 : undefined)
      const row = yield* repo.record({
        communityId: member.communityId,
        courseId: course.id,
        lessonId: lesson.id,
        profileId: member.actingProfileId,
        completed: input.completed,
        percent,
        lastPositionSeconds: input.lastPositionSeconds,
        at: new Date(now)
      })
      const totals = yield* repo.completion(member.communityId, course.id, member.actingProfileId)
      const recorded = {
        lessonId: row.lessonId,
        courseId: row.courseId,
        profileId: row.profileId,
        ...progressView(row),
        course: completionView(totals.completed, totals.total)
      }
      // Only the move to completed is told: a lesson completed before (or a course already complete) sends nothing.
      const justCompleted = row.completed && !row.wasCompleted
      if (justCompleted) yield* webhooks.emit(member.communityId, "lesson.completed", recorded)
      if (justCompleted && totals.completed === totals.total) {
        yield* webhooks.emit(member.communityId, "course.completed", {
          ...enrollmentView(enrollment.value),
          completedAt: recorded.completedAt
        })
      }
      if (totals.total > 0 && totals.completed === totals.total) {
        // Every lesson done: tell listeners (certificates) through a durable job (courses/CourseCompleted.ts).
        const event: CourseCompleted = {
          communityId: member.communityId,
          spaceId: course.spaceId,
          courseId: course.id,
          profileId: member.actingProfileId
        }
        yield* jobs.enqueue({
          kind: COURSE_COMPLETED_JOB,
          key: `${course.id}:${member.actingProfileId}`,
          payload: event
        })
      }
      return recorded
    }, atomic(sql))

    return { enroll, progress }
  }),
  dependencies: [LearningRepo.Default, CoursesRepo.Default, CurriculumRepo.Default]
}) {}
