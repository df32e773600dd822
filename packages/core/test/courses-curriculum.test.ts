import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "./support/community"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createLesson,
  createModule,
  MODULE_NOT_FOUND
} from "./support/courses"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { STAFF_REQUIRED } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
let other: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
  other = await courseCommunity(api, "Outra")
})
const owner = () => as(setup.owner, setup.community)

/** Module titles with their lesson titles, in the order the detail gives them. */
const outline = async (courseId: string) => {
  const detail = expectOk(await api.get(`/api/courses/${courseId}`, owner()))
  return detail.modules.map((m: any) => {
    expect(m.lessons.map((l: any) => l.position)).toEqual(m.lessons.map((_: unknown, i: number) => i))
    return [m.title, m.position, m.lessons.map((l: any) => l.title)]
  })
}

describe("modules", () => {
  it("appends modules, inserts at a position, renames and reorders them", async () => {
    const course = await createCourse(api, setup)
    const a = await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    expect([a.position, b.position]).toEqual([0, 1])
    const c = await createModule(api, setup, course.id, { title: "C", position: 0 })
    expect(c).toMatchObject({ courseId: course.id, title: "C", position: 0 })
    expect(await outline(course.id)).toEqual([["C", 0, []], ["A", 1, []], ["B", 2, []]])

    const renamed = expectOk(await api.put(`/api/courses/module/${a.id}`, { title: "A2" }, owner()), 200)
    expect(renamed).toMatchObject({ title: "A2", position: 1 })
    expectOk(await api.put(`/api/courses/module/${c.id}`, { position: 99 }, owner()))
    expect(await outline(course.id)).toEqual([["A2", 0, []], ["B", 1, []], ["C", 2, []]])
    expectOk(await api.put(`/api/courses/module/${b.id}`, { position: 0, title: "B2" }, owner()))
    expect(await outline(course.id)).toEqual([["B2", 0, []], ["A2", 1, []], ["C", 2, []]])
  })

  it("answers 404 Curso não encontrado. for an unknown or other community's course", async () => {
    const foreign = await createCourse(api, other)
    for (const courseId of [unknownId(), foreign.id]) {
      expectError(await api.post("/api/courses/module", { courseId, title: "M" }, owner()), 404, COURSE_NOT_FOUND)
    }
  })

  it("answers 404 Module not found for an unknown or other community's module", async () => {
    const foreign = await createModule(api, other, (await createCourse(api, other)).id)
    for (const id of [unknownId(), foreign.id]) {
      expectError(await api.put(`/api/courses/module/${id}`, { title: "X" }, owner()), 404, MODULE_NOT_FOUND)
      expectError(await api.del(`/api/courses/module/${id}`, owner()), 404, MODULE_NOT_FOUND)
    }
    expectInvalid(await api.put("/api/courses/module/abc", { title: "X" }, owner()), "moduleId", "params")
  })

  it("deletes a module with its lessons and closes the gap", async () => {
    const course = await createCourse(api, setup)
    const a = await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    await createModule(api, setup, course.id, { title: "C" })
    const lesson = await createLesson(api, setup, b.id)
    expectOk(await api.del(`/api/courses/module/${b.id}`, owner()), 200, "Módulo removido com sucesso.")
    expect(await outline(course.id)).toEqual([["A", 0, []], ["C", 1, []]])
    expectError(await api.put(`/api/courses/lesson/${lesson.id}`, { title: "X" }, owner()), 404, "Aula não encontrada.")
    expect(a.position).toBe(0)
  })

  it("is only for staff (403)", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id)
    const member = as(await setup.addMember("member"), setup.community)
    expectError(
      await api.post("/api/courses/module", { courseId: course.id, title: "M" }, member),
      403,
      STAFF_REQUIRED("member")
    )
    expectError(await api.put(`/api/courses/module/${module.id}`, { title: "M" }, member), 403)
    expectError(await api.del(`/api/courses/module/${module.id}`, member), 403)
  })

  it("answers malformed input with 400", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id)
    expectInvalid(await api.post("/api/courses/module", { courseId: course.id }, owner()), "title")
    expectInvalid(
      await api.post("/api/courses/module", { courseId: course.id, title: "M", position: -1 }, owner()),
      "position"
    )
    expectInvalid(await api.put(`/api/courses/module/${module.id}`, { position: 1.5 }, owner()), "position")
    expectInvalid(await api.post("/api/courses/module", { title: "M" }, owner()), "courseId")
  })
})

describe("lessons", () => {
  it("creates each type with its content field, or without it (content comes later)", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    const content = {
      text: ["body", "Texto da aula"],
      image: ["imageUrl", "https://cdn.roda.test/a.png"],
      video: ["videoUrl", "https://video.roda.test/v/1"],
      link: ["url", "https://roda.test/leitura"]
    } as const
    for (const [type, [field, value]] of Object.entries(content)) {
      const lesson = expectCreated(
        await api.post("/api/courses/lesson", {
          moduleId: module.id,
          title: type,
          type,
          [field]: value,
          durationSeconds: 60
        }, owner()),
        "Aula criada com sucesso."
      )
      expect(lesson).toMatchObject({ moduleId: module.id, type, [field]: value, durationSeconds: 60 })
      const missing = await api.post(
        "/api/courses/lesson",
        { moduleId: module.id, title: type, type, body: null },
        owner()
      )
      expect(expectCreated(missing)).toMatchObject({ type, [field]: null, hasContent: false })
    }
    expect(
      expectInvalid(
        await api.post("/api/courses/lesson", { moduleId: module.id, title: "X", type: "text", body: " " }, owner()),
        "body"
      ).message
    ).toBe("body não pode ficar em branco.")
    expectInvalid(
      await api.post("/api/courses/lesson", { moduleId: module.id, title: "X", type: "audio" }, owner()),
      "type"
    )
    expectInvalid(
      await api.post(
        "/api/courses/lesson",
        { moduleId: module.id, title: "X", type: "video", videoUrl: "ftp://x" },
        owner()
      ),
      "videoUrl"
    )
  })

  it("answers 404 Module not found for an unknown or other community's module", async () => {
    const foreign = await createModule(api, other, (await createCourse(api, other)).id)
    for (const moduleId of [unknownId(), foreign.id]) {
      const reply = await api.post("/api/courses/lesson", { moduleId, title: "X", type: "text", body: "b" }, owner())
      expectError(reply, 404, MODULE_NOT_FOUND)
    }
    const english = await api.post("/api/courses/lesson", {
      moduleId: unknownId(),
      title: "X",
      type: "text",
      body: "b"
    }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expectError(english, 404, MODULE_NOT_FOUND)
    expectInvalid(
      await api.post("/api/courses/lesson", { moduleId: "m1", title: "X", type: "text", body: "b" }, owner()),
      "moduleId"
    )
  })

  it("edits title, type, content, duration and position", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    const first = await createLesson(api, setup, module.id, { title: "1" })
    const second = await createLesson(api, setup, module.id, { title: "2" })
    const third = await createLesson(api, setup, module.id, { title: "3", position: 0 })
    expect(third.position).toBe(0)

    const toVideo = expectOk(await api.put(`/api/courses/lesson/${first.id}`, { type: "video" }, owner()))
    expect(toVideo).toMatchObject({ type: "video", videoUrl: null, hasContent: false })
    const edited = expectOk(
      await api.put(`/api/courses/lesson/${first.id}`, {
        title: "Um",
        type: "video",
        videoUrl: "https://video.roda.test/1",
        durationSeconds: 300,
        position: 2
      }, owner()),
      200,
      "Aula atualizada com sucesso."
    )
    expect(edited).toMatchObject({
      title: "Um",
      type: "video",
      durationSeconds: 300,
      position: 2,
      body: "Conteúdo",
      hasContent: true
    })
    const detail = expectOk(await api.get(`/api/courses/${module.courseId}`, owner()))
    expect(detail.modules[0].lessons.map((l: any) => [l.title, l.position])).toEqual([["3", 0], ["2", 1], ["Um", 2]])
    const cleared = expectOk(await api.put(`/api/courses/lesson/${second.id}`, { body: null }, owner()))
    expect(cleared).toMatchObject({ body: null, hasContent: false })
    expectInvalid(await api.put(`/api/courses/lesson/${second.id}`, { body: "" }, owner()), "body")
  })

  it("moves a lesson to another module of the same course, never to another course (400)", async () => {
    const course = await createCourse(api, setup)
    const a = await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    const [a1, a2] = [
      await createLesson(api, setup, a.id, { title: "a1" }),
      await createLesson(api, setup, a.id, { title: "a2" })
    ]
    await createLesson(api, setup, b.id, { title: "b1" })
    expectOk(await api.put(`/api/courses/lesson/${a1.id}`, { moduleId: b.id, position: 0 }, owner()))
    expectOk(await api.put(`/api/courses/lesson/${a2.id}`, { moduleId: b.id }, owner()))
    expect(await outline(course.id)).toEqual([["A", 0, []], ["B", 1, ["a1", "b1", "a2"]]])

    const elsewhere = await createModule(api, setup, (await createCourse(api, setup)).id)
    const refused = await api.put(`/api/courses/lesson/${a1.id}`, { moduleId: elsewhere.id }, owner())
    expect(expectInvalid(refused, "moduleId").message).toBe("A aula só pode ser movida para um módulo do mesmo curso.")
    const foreign = await createModule(api, other, (await createCourse(api, other)).id)
    expectError(await api.put(`/api/courses/lesson/${a1.id}`, { moduleId: foreign.id }, owner()), 404, MODULE_NOT_FOUND)
  })

  it("deletes a lesson and closes the gap; another community's lesson is not found", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id, { title: "M" })
    const lessons = [
      await createLesson(api, setup, module.id, { title: "1" }),
      await createLesson(api, setup, module.id, { title: "2" })
    ]
    expectOk(await api.del(`/api/courses/lesson/${lessons[0]!.id}`, owner()), 200, "Aula removida com sucesso.")
    expect(await outline(course.id)).toEqual([["M", 0, ["2"]]])
    const foreign = await createLesson(
      api,
      other,
      (await createModule(api, other, (await createCourse(api, other)).id)).id
    )
    expectError(await api.del(`/api/courses/lesson/${foreign.id}`, owner()), 404)
    expectError(await api.put(`/api/courses/lesson/${foreign.id}`, { title: "X" }, owner()), 404)
    expectInvalid(await api.del("/api/courses/lesson/xyz", owner()), "lessonId", "params")
  })

  it("is only for staff (403)", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    const lesson = await createLesson(api, setup, module.id)
    const member = as(await setup.addMember("member"), setup.community)
    expectError(
      await api.post("/api/courses/lesson", { moduleId: module.id, title: "X", type: "text", body: "b" }, member),
      403
    )
    expectError(await api.put(`/api/courses/lesson/${lesson.id}`, { title: "X" }, member), 403)
    expectError(await api.del(`/api/courses/lesson/${lesson.id}`, member), 403)
  })
})
