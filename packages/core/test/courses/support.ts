import type { RodaClient } from "@roda/client"
import { expect } from "vitest"
import type { NewCourse, NewLesson } from "../../src/courses/Api"
import type { TestCommunity } from "../support/community"
import { type Contract, ok } from "../support/contract"
import type { CourseCommunity } from "../support/courses"
import { UUID } from "../support/envelope"

export {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  INVALID_COURSE_ID,
  MODULE_NOT_FOUND,
  SPACE_ID_REQUIRED,
  SPACE_REFUSED
} from "../support/courses"

// The suites' helpers of support/courses.ts, on the typed client (the other suites keep those).

type CoursePayload = Partial<typeof NewCourse.Type>
type LessonPayload = Partial<typeof NewLesson.Type>

/** The owner of `setup`, acting in it. */
export const ownerOf = (typed: Contract, setup: TestCommunity): RodaClient => typed.as(setup.owner, setup.community)

/** A draft course in `setup`'s courses space. */
export const createCourse = async (typed: Contract, setup: CourseCommunity, payload: CoursePayload = {}) => {
  const created = await ok(
    ownerOf(typed, setup).courses.create({ payload: { spaceId: setup.space.id, title: "Curso", ...payload } })
  )
  expect(created.data.id).toMatch(UUID)
  return created.data
}

export const publish = async (typed: Contract, setup: TestCommunity, courseId: string) =>
  (await ok(ownerOf(typed, setup).courses.update({ path: { id: courseId }, payload: { status: "published" } }))).data

export const createModule = async (
  typed: Contract,
  setup: TestCommunity,
  courseId: string,
  payload: { title?: string; order?: number; position?: number } = {}
) => {
  const created = await ok(
    ownerOf(typed, setup).courses.createModule({ payload: { courseId, title: "Módulo", ...payload } })
  )
  expect(created.data.id).toMatch(UUID)
  return created.data
}

export const createLesson = async (
  typed: Contract,
  setup: TestCommunity,
  moduleId: string,
  payload: LessonPayload = {}
) => {
  const created = await ok(
    ownerOf(typed, setup).courses.createLesson({
      payload: { moduleId, title: "Aula", type: "text", body: "Conteúdo", ...payload }
    })
  )
  expect(created.data.id).toMatch(UUID)
  return created.data
}

/** A published course with `modules` modules of `lessons` lessons each. */
export const publishedCourse = async (
  typed: Contract,
  setup: CourseCommunity,
  shape: { modules?: number; lessons?: number; payload?: CoursePayload } = {}
) => {
  const course = await createCourse(typed, setup, shape.payload)
  const modules: Array<{ id: string; lessons: Array<{ id: string }> }> = []
  for (let m = 0; m < (shape.modules ?? 1); m++) {
    const module = await createModule(typed, setup, course.id, { title: `Módulo ${m + 1}` })
    const lessons: Array<{ id: string }> = []
    for (let l = 0; l < (shape.lessons ?? 2); l++) {
      lessons.push(await createLesson(typed, setup, module.id, { title: `Aula ${m + 1}.${l + 1}` }))
    }
    modules.push({ id: module.id, lessons })
  }
  await publish(typed, setup, course.id)
  return { ...course, modules }
}
