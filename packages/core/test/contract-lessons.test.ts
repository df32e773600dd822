import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "./support/community"
import { type CourseCommunity, courseCommunity, createCourse, createLesson, createModule } from "./support/courses"
import { expectCreated, expectInvalid, expectOk } from "./support/envelope"
import { client, startRoda } from "./support/harness"

// Issue 10 item 12: the spec's lesson fields (`duration`, `order`) and module `order` are applied, and a
// lesson may be created with only `moduleId`, `title` and `type`.

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api, "Contrato")
})
const owner = () => as(setup.owner, setup.community)

/** [module title, [lesson title, order]…] as the course detail shows them; checks both orders are 0..n-1. */
const outline = async (courseId: string) => {
  const detail = expectOk(await api.get(`/api/courses/${courseId}`, owner()))
  expect(detail.modules.map((m: any) => m.order)).toEqual(detail.modules.map((_: unknown, i: number) => i))
  return detail.modules.map((m: any) => {
    expect(m.lessons.map((l: any) => l.order)).toEqual(m.lessons.map((_: unknown, i: number) => i))
    expect(m.lessons.map((l: any) => l.position)).toEqual(m.lessons.map((_: unknown, i: number) => i))
    return [m.title, m.lessons.map((l: any) => l.title)]
  })
}

describe("lesson edit with the spec's fields", () => {
  it("applies `order` (0-based place in the module) and `duration` (seconds)", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id, { title: "M" })
    await createLesson(api, setup, module.id, { title: "A" })
    await createLesson(api, setup, module.id, { title: "B" })
    const c = await createLesson(api, setup, module.id, { title: "C" })

    const edited = expectOk(await api.put(`/api/courses/lesson/${c.id}`, { order: 0, duration: 600 }, owner()))
    expect(edited).toMatchObject({ order: 0, position: 0, duration: 600, durationSeconds: 600 })
    expect(await outline(course.id)).toEqual([["M", ["C", "A", "B"]]])

    const cleared = expectOk(await api.put(`/api/courses/lesson/${c.id}`, { duration: null, order: 99 }, owner()))
    expect(cleared).toMatchObject({ order: 2, duration: null, durationSeconds: null })
    expect(await outline(course.id)).toEqual([["M", ["A", "B", "C"]]])
  })

  it("refuses a bad `duration` or `order`, and the old and new names disagreeing", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    const lesson = await createLesson(api, setup, module.id)
    const put = (body: Record<string, unknown>) => api.put(`/api/courses/lesson/${lesson.id}`, body, owner())
    expectInvalid(await put({ duration: -1 }), "duration")
    expectInvalid(await put({ duration: 1.5 }), "duration")
    expectInvalid(await put({ order: -1 }), "order")
    expectInvalid(await put({ order: "first" }), "order")
    expectInvalid(await put({ duration: 60, durationSeconds: 61 }), "duration")
    expectInvalid(await put({ order: 0, position: 1 }), "order")
    expect(expectOk(await put({ duration: 60, durationSeconds: 60 }))).toMatchObject({ duration: 60 })
  })

  it("moves a lesson to another module of the course at `order`", async () => {
    const course = await createCourse(api, setup)
    const a = await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    const a1 = await createLesson(api, setup, a.id, { title: "a1" })
    await createLesson(api, setup, a.id, { title: "a2" })
    await createLesson(api, setup, b.id, { title: "b1" })
    await createLesson(api, setup, b.id, { title: "b2" })
    const moved = expectOk(await api.put(`/api/courses/lesson/${a1.id}`, { moduleId: b.id, order: 1 }, owner()))
    expect(moved).toMatchObject({ moduleId: b.id, order: 1 })
    expect(await outline(course.id)).toEqual([["A", ["a2"]], ["B", ["b1", "a1", "b2"]]])
  })

  it("keeps every module's order dense and unique under concurrent reorders and moves", async () => {
    const course = await createCourse(api, setup)
    const a = await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    const lessons: Array<{ id: string }> = []
    for (let i = 0; i < 6; i++) lessons.push(await createLesson(api, setup, a.id, { title: `l${i}` }))
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => {
      const lesson = lessons[i % lessons.length]!
      const body = i % 3 === 0 ? { moduleId: i % 2 === 0 ? b.id : a.id, order: i % 4 } : { order: (i * 7) % 5 }
      return api.put(`/api/courses/lesson/${lesson.id}`, body, owner())
    }))
    for (const reply of replies) expect(typeof expectOk(reply).order).toBe("number")
    const result = await outline(course.id)
    const titles = result.flatMap(([, ls]: [string, Array<string>]) => ls).sort()
    expect(titles).toEqual(["l0", "l1", "l2", "l3", "l4", "l5"])
  })
})

describe("module edit with the spec's `order`", () => {
  it("reorders modules with `order` and answers it", async () => {
    const course = await createCourse(api, setup)
    await createModule(api, setup, course.id, { title: "A" })
    const b = await createModule(api, setup, course.id, { title: "B" })
    const c = await createModule(api, setup, course.id, { title: "C" })
    const edited = expectOk(await api.put(`/api/courses/module/${c.id}`, { order: 0, title: "C2" }, owner()))
    expect(edited).toMatchObject({ title: "C2", order: 0, position: 0 })
    expect(await outline(course.id)).toEqual([["C2", []], ["A", []], ["B", []]])
    expectOk(await api.put(`/api/courses/module/${b.id}`, { order: 0 }, owner()))
    expect(await outline(course.id)).toEqual([["B", []], ["C2", []], ["A", []]])
    expectInvalid(await api.put(`/api/courses/module/${b.id}`, { order: 1.5 }, owner()), "order")
    expectInvalid(await api.put(`/api/courses/module/${b.id}`, { order: 1, position: 2 }, owner()), "order")
  })
})

describe("lesson creation with only the spec's fields", () => {
  it("creates a lesson without content; it shows null content and `hasContent: false` until content is set", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id, { title: "M" })
    for (const type of ["text", "image", "video", "link"]) {
      const lesson = expectCreated(
        await api.post("/api/courses/lesson", { moduleId: module.id, title: `Aula ${type}`, type }, owner()),
        "Aula criada com sucesso."
      )
      expect(lesson).toMatchObject({
        type,
        body: null,
        imageUrl: null,
        videoUrl: null,
        url: null,
        duration: null,
        hasContent: false
      })
    }
    const [first] = expectOk(await api.get(`/api/courses/${course.id}`, owner())).modules[0].lessons
    expect(first).toMatchObject({ title: "Aula text", hasContent: false, body: null })
    // Other edits of a lesson without content are fine; content comes later.
    expectOk(await api.put(`/api/courses/lesson/${first.id}`, { title: "Renomeada" }, owner()))
    const filled = expectOk(await api.put(`/api/courses/lesson/${first.id}`, { body: "Agora com texto" }, owner()))
    expect(filled).toMatchObject({ body: "Agora com texto", hasContent: true })
    // A blank content field is still refused.
    expectInvalid(await api.put(`/api/courses/lesson/${first.id}`, { body: "   " }, owner()), "body")
  })
})
