import type { LessonRow, ModuleRow } from "./CurriculumRepo"
import type { EnrollmentRow, ProgressRow } from "./LearningRepo"
import { release } from "./Policy"
import { completionView, enrollmentView, lessonView, moduleView, progressView } from "./view"

export interface OutlineInput {
  readonly modules: ReadonlyArray<ModuleRow>
  readonly lessons: ReadonlyArray<LessonRow>
  /** Present for a member viewer (possibly not enrolled); absent for anonymous visitors. */
  readonly learner:
    | { readonly enrollment: EnrollmentRow | undefined; readonly progress: ReadonlyArray<ProgressRow> }
    | undefined
  readonly staff: boolean
  readonly now: number
}

/**
 * The course outline as one viewer sees it: modules in order with their lessons in order, each
 * lesson with its drip state (content withheld while locked) and the viewer's progress.
 */
export const outline = ({ learner, lessons, modules, now, staff }: OutlineInput) => {
  const progressByLesson = new Map(learner?.progress.map((row) => [row.lessonId, row]))
  const lessonsByModule = new Map<string, Array<LessonRow>>()
  for (const lesson of lessons) {
    const list = lessonsByModule.get(lesson.moduleId) ?? []
    list.push(lesson)
    lessonsByModule.set(lesson.moduleId, list)
  }
  const lessonOf = (row: LessonRow) => {
    const { availableAt, locked } = release(row.releaseAfterDays, learner?.enrollment?.enrolledAt, now, staff)
    const progress = progressByLesson.get(row.id)
    // Added to the view in place: a spread copies the view's fields one by one into an object that
    // JSON.stringify then walks slowly (~5x the time of this, measured with the stringify).
    return Object.assign(lessonView(row, locked), {
      locked,
      availableAt: availableAt === null ? null : availableAt.toISOString(),
      progress: progress === undefined ? null : progressView(progress)
    })
  }
  const completed = lessons.filter((lesson) => progressByLesson.get(lesson.id)?.completed === true).length
  return {
    lessonCount: lessons.length,
    modules: modules.map((module) =>
      Object.assign(moduleView(module), {
        lessons: (lessonsByModule.get(module.id) ?? [])
          .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
          .map(lessonOf)
      })
    ),
    enrollment: learner?.enrollment === undefined ? null : enrollmentView(learner.enrollment),
    completion: learner === undefined ? null : completionView(completed, lessons.length)
  }
}
