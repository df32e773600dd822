import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { contract, fails, invalid, ok, rawInvalid } from "../support/contract"
import { unknownId, UUID } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { STAFF_REQUIRED } from "../support/structure"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createLesson,
  createModule,
  MODULE_NOT_FOUND,
  ownerOf
} from "./support"

// Contract calls through `typed`; input the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
let other: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
  other = await courseCommunity(api, "Outra")
})
const owner = () => ownerOf(typed, setup)
const raw = () => as(setup.owner, setup.community)

/** Module titles with their lesson titles, in the order the detail gives them. */
const outline = async (courseId: string) => {
  const detail = (await ok(owner().courses.detail({ path: { id: courseId } }))).data
  return detail.modules.map((m) => {
    expect(m.lessons.map((l) => l.position)).toEqual(m.lessons.map((_, i) => i))
    return [m.title, m.position, m.lessons.map((l) => l.title)]
  })
}

describe("modules", () => {
  it("appends modules, inserts at a position, renames and reorders them", async () => {
    const course = await createCourse(typed, setup)
    const a = await createModule(typed, setup, course.id, { title: "A" })
    const b = await createModule(typed, setup, course.id, { title: "B" })
    expect([a.position, b.position]).toEqual([0, 1])
    const c = await createModule(typed, setup, course.id, { title: "C", position: 0 })
    expect(c).toMatchObject({ courseId: course.id, title: "C", position: 0 })
    expect(await outline(course.id)).toEqual([["C", 0, []], ["A", 1, []], ["B", 2, []]])

    const updateModule = (moduleId: string, payload: { title?: string; position?: number }) =>
      ok(owner().courses.updateModule({ path: { moduleId }, payload }))
    const renamed = await updateModule(a.id, { title: "A2" })
    expect(renamed.data).toMatchObject({ title: "A2", position: 1 })
    await updateModule(c.id, { position: 99 })
    expect(await outline(course.id)).toEqual([["A2", 0, []], ["B", 1, []], ["C", 2, []]])
    await updateModule(b.id, { position: 0, title: "B2" })
    expect(await outline(course.id)).toEqual([["B2", 0, []], ["A2", 1, []], ["C", 2, []]])
  })

  it("answers 404 Curso não encontrado. for an unknown or other community's course", async () => {
    const foreign = await createCourse(typed, other)
    for (const courseId of [unknownId(), foreign.id]) {
      await fails(owner().courses.createModule({ payload: { courseId, title: "M" } }), 404, COURSE_NOT_FOUND)
    }
  })

  it("answers 404 Module not found for an unknown or other community's module", async () => {
    const foreign = await createModule(typed, other, (await createCourse(typed, other)).id)
    for (const moduleId of [unknownId(), foreign.id]) {
      await fails(
        owner().courses.updateModule({ path: { moduleId }, payload: { title: "X" } }),
        404,
        MODULE_NOT_FOUND
      )
      await fails(owner().courses.removeModule({ path: { moduleId } }), 404, MODULE_NOT_FOUND)
    }
    rawInvalid(await api.put("/api/courses/module/abc", { title: "X" }, raw()), "moduleId", "params")
  })

  it("deletes a module with its lessons and closes the gap", async () => {
    const course = await createCourse(typed, setup)
    const a = await createModule(typed, setup, course.id, { title: "A" })
    const b = await createModule(typed, setup, course.id, { title: "B" })
    await createModule(typed, setup, course.id, { title: "C" })
    const lesson = await createLesson(typed, setup, b.id)
    const removed = await ok(owner().courses.removeModule({ path: { moduleId: b.id } }))
    expect(removed.message).toBe("Módulo removido com sucesso.")
    expect(await outline(course.id)).toEqual([["A", 0, []], ["C", 1, []]])
    await fails(
      owner().courses.updateLesson({ path: { lessonId: lesson.id }, payload: { title: "X" } }),
      404,
      "Aula não encontrada."
    )
    expect(a.position).toBe(0)
  })

  it("is only for staff (403)", async () => {
    const course = await createCourse(typed, setup)
    const module = await createModule(typed, setup, course.id)
    const member = typed.as(await setup.addMember("member"), setup.community)
    await fails(
      member.courses.createModule({ payload: { courseId: course.id, title: "M" } }),
      403,
      STAFF_REQUIRED("member")
    )
    await fails(member.courses.updateModule({ path: { moduleId: module.id }, payload: { title: "M" } }), 403)
    await fails(member.courses.removeModule({ path: { moduleId: module.id } }), 403)
  })

  it("answers malformed input with 400 (raw: the contract's types refuse it)", async () => {
    const course = await createCourse(typed, setup)
    const module = await createModule(typed, setup, course.id)
    rawInvalid(await api.post("/api/courses/module", { courseId: course.id }, raw()), "title")
    rawInvalid(
      await api.post("/api/courses/module", { courseId: course.id, title: "M", position: -1 }, raw()),
      "position"
    )
    rawInvalid(await api.put(`/api/courses/module/${module.id}`, { position: 1.5 }, raw()), "position")
    rawInvalid(await api.post("/api/courses/module", { title: "M" }, raw()), "courseId")
  })
})

describe("lessons", () => {
  it("creates each type with its content field, or without it (content comes later)", async () => {
    const module = await createModule(typed, setup, (await createCourse(typed, setup)).id)
    const content = {
      text: { body: "Texto da aula" },
      image: { imageUrl: "https://cdn.roda.test/a.png" },
      video: { videoUrl: "https://video.roda.test/v/1" },
      link: { url: "https://roda.test/leitura" }
    } as const
    for (const type of ["text", "image", "video", "link"] as const) {
      const fields = content[type]
      const created = await ok(
        owner().courses.createLesson({
          payload: { moduleId: module.id, title: type, type, ...fields, durationSeconds: 60 }
        })
      )
      expect(created.message).toBe("Aula criada com sucesso.")
      expect(created.data.id).toMatch(UUID)
      expect(created.data).toMatchObject({ moduleId: module.id, type, ...fields, durationSeconds: 60 })
      const missing = await ok(
        owner().courses.createLesson({
          payload: { moduleId: module.id, title: type, type, body: null }
        })
      )
      expect(missing.data.id).toMatch(UUID)
      const field = Object.keys(fields)[0]!
      expect(missing.data).toMatchObject({ type, [field]: null, hasContent: false })
    }
    const blank = await invalid(
      owner().courses.createLesson({ payload: { moduleId: module.id, title: "X", type: "text", body: " " } }),
      "body"
    )
    expect(blank.text.pt).toBe("body não pode ficar em branco.")
    rawInvalid(await api.post("/api/courses/lesson", { moduleId: module.id, title: "X", type: "audio" }, raw()), "type")
    rawInvalid(
      await api.post(
        "/api/courses/lesson",
        { moduleId: module.id, title: "X", type: "video", videoUrl: "ftp://x" },
        raw()
      ),
      "videoUrl"
    )
  })

  it("answers 404 Module not found for an unknown or other community's module", async () => {
    const foreign = await createModule(typed, other, (await createCourse(typed, other)).id)
    for (const moduleId of [unknownId(), foreign.id]) {
      await fails(
        owner().courses.createLesson({ payload: { moduleId, title: "X", type: "text", body: "b" } }),
        404,
        MODULE_NOT_FOUND
      )
    }
    const english = typed.clientOf({ token: setup.owner.token, communityId: setup.community.id, language: "en" })
    await fails(
      english.courses.createLesson({ payload: { moduleId: unknownId(), title: "X", type: "text", body: "b" } }),
      404,
      MODULE_NOT_FOUND
    )
    rawInvalid(
      await api.post("/api/courses/lesson", { moduleId: "m1", title: "X", type: "text", body: "b" }, raw()),
      "moduleId"
    )
  })

  it("edits title, type, content, duration and position", async () => {
    const module = await createModule(typed, setup, (await createCourse(typed, setup)).id)
    const first = await createLesson(typed, setup, module.id, { title: "1" })
    const second = await createLesson(typed, setup, module.id, { title: "2" })
    const third = await createLesson(typed, setup, module.id, { title: "3", position: 0 })
    expect(third.position).toBe(0)

    const toVideo = await ok(owner().courses.updateLesson({ path: { lessonId: first.id }, payload: { type: "video" } }))
    expect(toVideo.data).toMatchObject({ type: "video", videoUrl: null, hasContent: false })
    const edited = await ok(
      owner().courses.updateLesson({
        path: { lessonId: first.id },
        payload: {
          title: "Um",
          type: "video",
          videoUrl: "https://video.roda.test/1",
          durationSeconds: 300,
          position: 2
        }
      })
    )
    expect(edited.message).toBe("Aula atualizada com sucesso.")
    expect(edited.data).toMatchObject({
      title: "Um",
      type: "video",
      durationSeconds: 300,
      position: 2,
      body: "Conteúdo",
      hasContent: true
    })
    const detail = (await ok(owner().courses.detail({ path: { id: module.courseId } }))).data
    expect(detail.modules[0]!.lessons.map((l) => [l.title, l.position])).toEqual([["3", 0], ["2", 1], ["Um", 2]])
    const cleared = await ok(owner().courses.updateLesson({ path: { lessonId: second.id }, payload: { body: null } }))
    expect(cleared.data).toMatchObject({ body: null, hasContent: false })
    await invalid(owner().courses.updateLesson({ path: { lessonId: second.id }, payload: { body: "" } }), "body")
  })

  it("moves a lesson to another module of the same course, never to another course (400)", async () => {
    const course = await createCourse(typed, setup)
    const a = await createModule(typed, setup, course.id, { title: "A" })
    const b = await createModule(typed, setup, course.id, { title: "B" })
    const [a1, a2] = [
      await createLesson(typed, setup, a.id, { title: "a1" }),
      await createLesson(typed, setup, a.id, { title: "a2" })
    ]
    await createLesson(typed, setup, b.id, { title: "b1" })
    await ok(owner().courses.updateLesson({ path: { lessonId: a1.id }, payload: { moduleId: b.id, position: 0 } }))
    await ok(owner().courses.updateLesson({ path: { lessonId: a2.id }, payload: { moduleId: b.id } }))
    expect(await outline(course.id)).toEqual([["A", 0, []], ["B", 1, ["a1", "b1", "a2"]]])

    const elsewhere = await createModule(typed, setup, (await createCourse(typed, setup)).id)
    const refused = await invalid(
      owner().courses.updateLesson({ path: { lessonId: a1.id }, payload: { moduleId: elsewhere.id } }),
      "moduleId"
    )
    expect(refused.text.pt).toBe("A aula só pode ser movida para um módulo do mesmo curso.")
    const foreign = await createModule(typed, other, (await createCourse(typed, other)).id)
    await fails(
      owner().courses.updateLesson({ path: { lessonId: a1.id }, payload: { moduleId: foreign.id } }),
      404,
      MODULE_NOT_FOUND
    )
  })

  it("deletes a lesson and closes the gap; another community's lesson is not found", async () => {
    const course = await createCourse(typed, setup)
    const module = await createModule(typed, setup, course.id, { title: "M" })
    const lessons = [
      await createLesson(typed, setup, module.id, { title: "1" }),
      await createLesson(typed, setup, module.id, { title: "2" })
    ]
    const removed = await ok(owner().courses.removeLesson({ path: { lessonId: lessons[0]!.id } }))
    expect(removed.message).toBe("Aula removida com sucesso.")
    expect(await outline(course.id)).toEqual([["M", 0, ["2"]]])
    const foreign = await createLesson(
      typed,
      other,
      (await createModule(typed, other, (await createCourse(typed, other)).id)).id
    )
    await fails(owner().courses.removeLesson({ path: { lessonId: foreign.id } }), 404)
    await fails(owner().courses.updateLesson({ path: { lessonId: foreign.id }, payload: { title: "X" } }), 404)
    rawInvalid(await api.del("/api/courses/lesson/xyz", raw()), "lessonId", "params")
  })

  it("is only for staff (403)", async () => {
    const module = await createModule(typed, setup, (await createCourse(typed, setup)).id)
    const lesson = await createLesson(typed, setup, module.id)
    const member = typed.as(await setup.addMember("member"), setup.community)
    await fails(
      member.courses.createLesson({ payload: { moduleId: module.id, title: "X", type: "text", body: "b" } }),
      403
    )
    await fails(member.courses.updateLesson({ path: { lessonId: lesson.id }, payload: { title: "X" } }), 403)
    await fails(member.courses.removeLesson({ path: { lessonId: lesson.id } }), 403)
  })
})
