import { Schema } from "effect"
import { Ok } from "../domain/Envelope"
import { Body, HttpUrl, Name, Slug } from "../domain/Fields"
import { isUuid, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { courseLevels, courseStatuses, lessonTypes } from "./Policy"

/** A course id: a UUID, or 400 `Valid course ID is required` (spec §7, always English). */
export const CourseId = Schema.String.pipe(
  Schema.filter((value) => isUuid(value.trim()), { message: () => "Valid course ID is required" }),
  Schema.annotations({ identifier: "CourseId", format: "uuid" })
)

export const Level = OneOf(...courseLevels)
export const Status = OneOf(...courseStatuses)
export const LessonType = OneOf(...lessonTypes)
export const Position = Schema.Number.pipe(Schema.int(), Schema.between(0, 100_000))
export const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(20_000)))
export const Count = (max: number) => Schema.Number.pipe(Schema.int(), Schema.between(0, max))

export const Course = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  spaceId: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  level: Level,
  status: Status,
  coverUrl: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  publishedAt: Schema.NullOr(Schema.String)
})

export const CourseModule = Schema.Struct({
  id: Schema.String,
  courseId: Schema.String,
  title: Schema.String,
  position: Schema.Number,
  /** The spec's name for `position` (same value). */
  order: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const Lesson = Schema.Struct({
  id: Schema.String,
  courseId: Schema.String,
  moduleId: Schema.String,
  title: Schema.String,
  type: LessonType,
  body: Schema.NullOr(Schema.String),
  imageUrl: Schema.NullOr(Schema.String),
  videoUrl: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  durationSeconds: Schema.NullOr(Schema.Number),
  /** The spec's name for `durationSeconds` (same value, seconds). */
  duration: Schema.NullOr(Schema.Number),
  position: Schema.Number,
  /** The spec's name for `position` (same value). */
  order: Schema.Number,
  /** Whether the content field of the lesson's type is set (a lesson may be created without it). */
  hasContent: Schema.Boolean,
  releaseAfterDays: Schema.NullOr(Schema.Number),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const LessonProgress = Schema.Struct({
  completed: Schema.Boolean,
  percent: Schema.Number,
  lastPositionSeconds: Schema.Number,
  completedAt: Schema.NullOr(Schema.String),
  updatedAt: Schema.String
})

export const Completion = Schema.Struct({
  completedLessons: Schema.Number,
  totalLessons: Schema.Number,
  percent: Schema.Number
})

export const Enrollment = Schema.Struct({
  id: Schema.String,
  courseId: Schema.String,
  profileId: Schema.String,
  enrolledAt: Schema.String
})

export const CourseDetail = Schema.Struct({
  ...Course.fields,
  lessonCount: Schema.Number,
  modules: Schema.Array(Schema.Struct({
    ...CourseModule.fields,
    lessons: Schema.Array(Schema.Struct({
      ...Lesson.fields,
      locked: Schema.Boolean,
      availableAt: Schema.NullOr(Schema.String),
      progress: Schema.NullOr(LessonProgress)
    }))
  })),
  enrollment: Schema.NullOr(Enrollment),
  completion: Schema.NullOr(Completion)
})

/** `GET /api/courses/{id}`'s answer. */
export const CourseAnswer = Ok(CourseDetail)

export const ProgressResult = Schema.Struct({
  lessonId: Schema.String,
  courseId: Schema.String,
  profileId: Schema.String,
  ...LessonProgress.fields,
  course: Completion
})

export const NewCourse = Body({
  communityId: Schema.optional(Uuid),
  spaceId: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
  title: Name(200),
  slug: Schema.optional(Slug),
  description: Schema.optional(Description),
  level: Schema.optional(Level),
  status: Schema.optional(OneOf("draft")),
  coverUrl: Schema.optional(Schema.NullOr(HttpUrl))
})

export const CourseChanges = Body({
  title: Schema.optional(Name(200)),
  slug: Schema.optional(Slug),
  description: Schema.optional(Description),
  level: Schema.optional(Level),
  status: Schema.optional(Status),
  coverUrl: Schema.optional(Schema.NullOr(HttpUrl))
})

export const Duration = Schema.NullOr(Count(1_000_000))

export const lessonFields = {
  title: Name(200),
  type: LessonType,
  body: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(200_000)))),
  imageUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  videoUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  url: Schema.optional(Schema.NullOr(HttpUrl)),
  /** The spec's `duration`, in seconds; `durationSeconds` is the same field under its older name. */
  duration: Schema.optional(Duration),
  durationSeconds: Schema.optional(Duration),
  releaseAfterDays: Schema.optional(Schema.NullOr(Count(3650))),
  /** The spec's `order`; `position` is the same field under its older name. */
  order: Schema.optional(Position),
  position: Schema.optional(Position)
}

export const NewLesson = Body({ moduleId: Uuid, ...lessonFields })

export const LessonChanges = Body({
  ...lessonFields,
  title: Schema.optional(lessonFields.title),
  type: Schema.optional(lessonFields.type),
  moduleId: Schema.optional(Uuid)
})

export const ProgressInput = Body({
  completed: Schema.optional(Schema.Boolean),
  percent: Schema.optional(Count(100)),
  lastPositionSeconds: Schema.optional(Count(10_000_000))
})

export const CourseQuery = Schema.Struct({
  ...PageQuery.fields,
  spaceId: Schema.optional(Uuid),
  status: Schema.optional(Status),
  level: Schema.optional(Level)
})

export const CourseIdParam = Schema.Struct({ id: CourseId })
export const ModuleIdParam = Schema.Struct({ moduleId: Uuid })
export const LessonIdParam = Schema.Struct({ lessonId: Uuid })
