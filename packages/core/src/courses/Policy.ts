import { Effect } from "effect"
import { conflict, fieldError, invalidField } from "../domain/AppError"
import { courseMessages as M } from "./messages"

export const courseLevels = ["beginner", "intermediate", "advanced"] as const
export type CourseLevel = typeof courseLevels[number]
export const courseStatuses = ["draft", "published"] as const
export type CourseStatus = typeof courseStatuses[number]
export const lessonTypes = ["text", "image", "video", "link"] as const
export type LessonType = typeof lessonTypes[number]

/** What a status move may depend on. */
export interface CourseFacts {
  readonly enrollments: number
}

/**
 * Course states (spec §3): created as `draft`; `draft -> published` opens enrollments. A published
 * course goes back to `draft` only while nobody is enrolled (an accidental publish can be undone,
 * learners are never stranded).
 */
const transitions: Record<CourseStatus, ReadonlyArray<{ to: CourseStatus; when: (facts: CourseFacts) => boolean }>> = {
  draft: [{ to: "published", when: () => true }],
  published: [{ to: "draft", when: (facts) => facts.enrollments === 0 }]
}

/** The statuses a course may move to now. */
export const allowedMoves = (from: CourseStatus, facts: CourseFacts): ReadonlyArray<CourseStatus> =>
  transitions[from].filter((move) => move.when(facts)).map((move) => move.to)

/** Whether the move needs facts from the database (only then are they read). */
export const isMove = (from: CourseStatus, to: CourseStatus | undefined): to is CourseStatus =>
  to !== undefined && to !== from

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkMove = (from: CourseStatus, to: CourseStatus, facts: CourseFacts) => {
  const allowed = allowedMoves(from, facts)
  if (allowed.includes(to)) return Effect.void
  const text = M.courseStatusMove(from, to, allowed)
  return Effect.fail(conflict(text, [fieldError("status", text)]))
}

/** The content field each lesson type needs. */
export const contentFieldOf: Record<LessonType, "body" | "imageUrl" | "videoUrl" | "url"> = {
  text: "body",
  image: "imageUrl",
  video: "videoUrl",
  link: "url"
}

export interface LessonContent {
  readonly type: LessonType
  readonly body: string | null
  readonly imageUrl: string | null
  readonly videoUrl: string | null
  readonly url: string | null
}

const contentFields = ["body", "imageUrl", "videoUrl", "url"] as const

/**
 * A lesson may be created with only `moduleId`, `title` and `type` (spec §2): its content comes later.
 * A content field that is set is never blank (400 naming it).
 */
export const checkContent = (lesson: LessonContent) => {
  const blank = contentFields.find((field) => lesson[field]?.trim() === "")
  return blank === undefined ? Effect.void : Effect.fail(invalidField(blank, M.lessonContentBlank(blank)))
}

/** Whether the content field of the lesson's type is set. */
export const hasContent = (lesson: LessonContent) => lesson[contentFieldOf[lesson.type]] !== null

/**
 * The spec's name of a field and its older alias name the same value: either may be sent, both only
 * with the same value (400 naming the spec's field otherwise).
 */
export const aliased = <A>(field: string, alias: string, value: A | undefined, aliasValue: A | undefined) =>
  value !== undefined && aliasValue !== undefined && value !== aliasValue
    ? Effect.fail(invalidField(field, M.fieldAliasDisagrees(field, alias)))
    : Effect.succeed(value !== undefined ? value : aliasValue)

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Drip: a lesson with `releaseAfterDays` opens that many days after the learner's enrollment.
 * Staff see everything; without an enrollment the clock has not started, so a lesson with a
 * positive delay stays locked.
 */
export const release = (
  releaseAfterDays: number | null,
  enrolledAt: Date | undefined,
  now: number,
  staff: boolean
): { locked: boolean; availableAt: Date | null } => {
  if (releaseAfterDays === null) return { locked: false, availableAt: null }
  if (enrolledAt === undefined) return { locked: !staff && releaseAfterDays > 0, availableAt: null }
  const availableAt = new Date(enrolledAt.getTime() + releaseAfterDays * DAY_MS)
  return { locked: !staff && now < availableAt.getTime(), availableAt }
}
