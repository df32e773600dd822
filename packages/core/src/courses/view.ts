import type { LessonRow, ModuleRow } from "./CurriculumRepo"
import type { EnrollmentRow, ProgressRow } from "./LearningRepo"
import { hasContent } from "./Policy"
import type { CourseRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** How a course, module, lesson, enrollment or progress row travels on the wire. */
export const courseView = (row: CourseRow) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  title: row.title,
  slug: row.slug,
  description: row.description,
  level: row.level,
  status: row.status,
  coverUrl: row.coverUrl,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  publishedAt: iso(row.publishedAt)
})

export const moduleView = (row: ModuleRow) => ({
  id: row.id,
  courseId: row.courseId,
  title: row.title,
  position: row.position,
  order: row.position,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

/** A lesson; `withheld` (a locked drip lesson in an outline) answers its content as null. */
export const lessonView = (row: LessonRow, withheld = false) => ({
  id: row.id,
  courseId: row.courseId,
  moduleId: row.moduleId,
  title: row.title,
  type: row.type,
  body: withheld ? null : row.body,
  imageUrl: withheld ? null : row.imageUrl,
  videoUrl: withheld ? null : row.videoUrl,
  url: withheld ? null : row.url,
  durationSeconds: row.durationSeconds,
  duration: row.durationSeconds,
  position: row.position,
  order: row.position,
  hasContent: hasContent(row),
  releaseAfterDays: row.releaseAfterDays,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const enrollmentView = (row: EnrollmentRow) => ({
  id: row.id,
  courseId: row.courseId,
  profileId: row.profileId,
  enrolledAt: row.enrolledAt.toISOString()
})

export const progressView = (row: ProgressRow) => ({
  completed: row.completed,
  percent: row.percent,
  lastPositionSeconds: row.lastPositionSeconds,
  completedAt: iso(row.completedAt),
  updatedAt: row.updatedAt.toISOString()
})

/** Completed lessons over lessons, as a whole percentage rounded down (100 only when all are done). */
export const completionView = (completed: number, total: number) => ({
  completedLessons: completed,
  totalLessons: total,
  percent: total === 0 ? 0 : Math.floor((completed * 100) / total)
})
