import { as, newCommunity, type TestCommunity } from "./community"
import { expectCreated, expectOk } from "./envelope"
import type { Client } from "./harness"
import { createSection, createSpace } from "./structure"

export const COURSE_NOT_FOUND = "Curso não encontrado."
export const MODULE_NOT_FOUND = "Module not found"
export const INVALID_COURSE_ID = "Valid course ID is required"
export const SPACE_ID_REQUIRED = "ID do espaço é obrigatório."
export const SPACE_REFUSED = "Espaço não encontrado ou não pertence a esta comunidade."

/** A community with a public section holding a public courses space. */
export const courseCommunity = async (api: Client, label = "Cursos") => {
  const setup = await newCommunity(api, label)
  const section = await createSection(api, setup, { visibility: "public" })
  const space = await createSpace(api, setup, section.id, { visibility: "public" })
  return { ...setup, section, space }
}

export type CourseCommunity = Awaited<ReturnType<typeof courseCommunity>>

const owner = (setup: TestCommunity) => as(setup.owner, setup.community)

export const createCourse = async (
  api: Client,
  setup: CourseCommunity,
  body: Record<string, unknown> = {}
) => expectCreated(await api.post("/api/courses", { spaceId: setup.space.id, title: "Curso", ...body }, owner(setup)))

export const publish = async (api: Client, setup: TestCommunity, courseId: string) =>
  expectOk(await api.put(`/api/courses/${courseId}`, { status: "published" }, owner(setup)))

export const createModule = async (
  api: Client,
  setup: TestCommunity,
  courseId: string,
  body: Record<string, unknown> = {}
) => expectCreated(await api.post("/api/courses/module", { courseId, title: "Módulo", ...body }, owner(setup)))

export const createLesson = async (
  api: Client,
  setup: TestCommunity,
  moduleId: string,
  body: Record<string, unknown> = {}
) =>
  expectCreated(
    await api.post(
      "/api/courses/lesson",
      { moduleId, title: "Aula", type: "text", body: "Conteúdo", ...body },
      owner(setup)
    )
  )

/** A published course with `modules` modules of `lessons` lessons each. */
export const publishedCourse = async (
  api: Client,
  setup: CourseCommunity,
  shape: { modules?: number; lessons?: number; body?: Record<string, unknown> } = {}
) => {
  const course = await createCourse(api, setup, shape.body)
  const modules: Array<{ id: string; lessons: Array<{ id: string }> }> = []
  for (let m = 0; m < (shape.modules ?? 1); m++) {
    const module = await createModule(api, setup, course.id, { title: `Módulo ${m + 1}` })
    const lessons: Array<{ id: string }> = []
    for (let l = 0; l < (shape.lessons ?? 2); l++) {
      lessons.push(await createLesson(api, setup, module.id, { title: `Aula ${m + 1}.${l + 1}` }))
    }
    modules.push({ id: module.id, lessons })
  }
  await publish(api, setup, course.id)
  return { ...course, modules }
}
