import type { RodaClient } from "@roda/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CourseAnswer } from "../../src/courses/Api"
import { as } from "../support/community"
import { contract, fails, invalid, ok, okAt, rawInvalid } from "../support/contract"
import { expectPlainJson, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { setGrants } from "../support/structure"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createLesson,
  createModule,
  ownerOf,
  publish,
  publishedCourse
} from "./support"

// Contract calls through `typed`; input the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
})
const owner = () => ownerOf(typed, setup)
/** A new member of the community, with the call options of its raw calls. */
const learner = async () => {
  const member = await setup.addMember("member")
  return { client: typed.as(member, setup.community), raw: as(member, setup.community) }
}
const enroll = (learner: RodaClient, courseId: string) =>
  okAt(learner.courses.enroll({ path: { courseId }, withResponse: true }), 201)
const progress = (
  learner: RodaClient,
  courseId: string,
  lessonId: string,
  payload: { completed?: boolean; percent?: number; lastPositionSeconds?: number }
) => learner.courses.progress({ path: { courseId, lessonId }, payload })
const detailOf = async (viewer: RodaClient, courseId: string) =>
  (await ok(viewer.courses.detail({ path: { id: courseId } }))).data
const progressPath = (courseId: string, lessonId: string) => `/api/courses/${courseId}/lesson/${lessonId}/progress`
const DAY = 24 * 60 * 60 * 1000

describe("POST /api/courses/:courseId/enroll", () => {
  it("enrolls once: 201, then 200 with the same enrollment", async () => {
    const course = await publishedCourse(typed, setup)
    const { client: member } = await learner()
    const first = await enroll(member, course.id)
    expect(first.message).toBe("Inscrição realizada com sucesso.")
    expect(first.data).toMatchObject({ courseId: course.id, alreadyEnrolled: false })
    const again = await okAt(member.courses.enroll({ path: { courseId: course.id }, withResponse: true }), 200)
    expect(again.data).toEqual({ ...first.data, alreadyEnrolled: true })
  })

  it("refuses a draft course (409), even to staff", async () => {
    const course = await createCourse(typed, setup)
    const message = "Só é possível se inscrever em um curso publicado."
    await fails((await learner()).client.courses.enroll({ path: { courseId: course.id } }), 409, message)
    await fails(owner().courses.enroll({ path: { courseId: course.id } }), 409, message)
  })

  it("needs access to the content of the course's space (403), and the course in this community", async () => {
    const course = await publishedCourse(typed, setup)
    await setGrants(roda, setup.space.id, { plans: [unknownId()] })
    try {
      await fails((await learner()).client.courses.enroll({ path: { courseId: course.id } }), 403)
    } finally {
      await setGrants(roda, setup.space.id, {})
    }
    const other = await courseCommunity(api, "Outra")
    const foreign = await publishedCourse(typed, other)
    await fails(owner().courses.enroll({ path: { courseId: foreign.id } }), 404, COURSE_NOT_FOUND)
    await fails(owner().courses.enroll({ path: { courseId: unknownId() } }), 404, COURSE_NOT_FOUND)
  })
})

describe("GET /api/courses/:identifier (times)", () => {
  it("answers the outline's times as the writes answered them, to the millisecond", async () => {
    const course = await createCourse(typed, setup)
    const module = await createModule(typed, setup, course.id)
    const lesson = await createLesson(typed, setup, module.id)
    await publish(typed, setup, course.id)
    const { client: member } = await learner()
    const enrollment = (await enroll(member, course.id)).data
    const recorded = (await ok(progress(member, course.id, lesson.id, { completed: true }))).data

    const detail = await detailOf(member, course.id)
    expect(detail.modules[0]).toMatchObject({ createdAt: module.createdAt, updatedAt: module.updatedAt })
    expect(detail.modules[0]!.lessons[0]).toMatchObject({ createdAt: lesson.createdAt, updatedAt: lesson.updatedAt })
    expect(detail.enrollment?.enrolledAt).toBe(enrollment.enrolledAt)
    expect(detail.modules[0]!.lessons[0]!.progress).toEqual({
      completed: true,
      percent: 100,
      lastPositionSeconds: recorded.lastPositionSeconds,
      completedAt: recorded.completedAt,
      updatedAt: recorded.updatedAt
    })
  })
})

describe("POST /api/courses/:courseId/lesson/:lessonId/progress", () => {
  it("records progress and reports completion (completed lessons / lessons)", async () => {
    const course = await publishedCourse(typed, setup, { modules: 2, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    const l3 = course.modules[1]!.lessons[0]!
    const { client: member, raw: options } = await learner()
    await enroll(member, course.id)

    const partial = await ok(progress(member, course.id, l1!.id, { percent: 40, lastPositionSeconds: 95 }))
    expect(partial.message).toBe("Progresso registrado com sucesso.")
    expect(partial.data).toMatchObject({
      lessonId: l1!.id,
      courseId: course.id,
      completed: false,
      percent: 40,
      lastPositionSeconds: 95,
      completedAt: null,
      course: { completedLessons: 0, totalLessons: 4, percent: 0 }
    })
    const done = (await ok(progress(member, course.id, l1!.id, { completed: true }))).data
    expect(done).toMatchObject({ completed: true, percent: 100, lastPositionSeconds: 95 })
    expect(done.completedAt).not.toBeNull()
    await ok(progress(member, course.id, l2!.id, { completed: true, percent: 100 }))
    const third = (await ok(progress(member, course.id, l3.id, { completed: true }))).data
    expect(third.course).toEqual({ completedLessons: 3, totalLessons: 4, percent: 75 })

    // (raw: the bytes of the answer, which the typed client decodes away)
    const wire = await api.get(`/api/courses/${course.id}`, options)
    expect(wire.status).toBe(200)
    expectPlainJson(CourseAnswer, wire.body)
    const detail = await detailOf(member, course.id)
    expect(detail.completion).toEqual({ completedLessons: 3, totalLessons: 4, percent: 75 })
    expect(detail.enrollment).toMatchObject({ courseId: course.id })
    expect(detail.modules[0]!.lessons[0]!.progress).toMatchObject({
      completed: true,
      percent: 100,
      lastPositionSeconds: 95
    })
    expect(detail.modules[1]!.lessons[1]!.progress).toBeNull()

    // Undoing completion keeps the other fields.
    const undone = (await ok(progress(member, course.id, l1!.id, { completed: false }))).data
    expect(undone).toMatchObject({ completed: false, percent: 100, completedAt: null })
    expect(undone.course.completedLessons).toBe(2)

    // Anonymous visitors get no progress; staff who never enrolled get an empty one.
    const anonymous = await detailOf(typed.anonymous(setup.community), course.id)
    expect(anonymous).toMatchObject({ enrollment: null, completion: null })
    expect((await detailOf(owner(), course.id)).completion).toEqual({
      completedLessons: 0,
      totalLessons: 4,
      percent: 0
    })
  })

  it("keeps progress when the lesson is deleted, and counts only current lessons", async () => {
    const course = await publishedCourse(typed, setup, { modules: 1, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    const { client: member } = await learner()
    await enroll(member, course.id)
    await ok(progress(member, course.id, l1!.id, { completed: true }))
    await ok(owner().courses.removeLesson({ path: { lessonId: l1!.id } }))
    const rows = await query(roda, (sql) => sql`SELECT completed FROM lesson_progress WHERE lesson_id = ${l1!.id}`)
    expect(rows).toEqual([{ completed: true }])
    const detail = await detailOf(member, course.id)
    expect(detail.completion).toEqual({ completedLessons: 0, totalLessons: 1, percent: 0 })
    await ok(progress(member, course.id, l2!.id, { completed: true }))
    expect((await detailOf(member, course.id)).completion?.percent).toBe(100)
  })

  it("requires an enrollment (409)", async () => {
    const course = await publishedCourse(typed, setup)
    await fails(
      progress((await learner()).client, course.id, course.modules[0]!.lessons[0]!.id, { percent: 10 }),
      409,
      "Inscreva-se no curso antes de registrar progresso."
    )
  })

  it("answers 404 for a lesson not in that course", async () => {
    const course = await publishedCourse(typed, setup)
    const otherCourse = await publishedCourse(typed, setup)
    const { client: member } = await learner()
    await enroll(member, course.id)
    for (const lessonId of [otherCourse.modules[0]!.lessons[0]!.id, unknownId()]) {
      await fails(progress(member, course.id, lessonId, { percent: 10 }), 404, "Aula não encontrada.")
    }
    await fails(
      progress(member, unknownId(), course.modules[0]!.lessons[0]!.id, { percent: 1 }),
      404,
      COURSE_NOT_FOUND
    )
  })

  it("answers malformed input with 400", async () => {
    const course = await publishedCourse(typed, setup)
    const lessonId = course.modules[0]!.lessons[0]!.id
    const { client: member, raw } = await learner()
    await enroll(member, course.id)
    // (raw: the contract's types refuse these)
    rawInvalid(await api.post(progressPath(course.id, lessonId), { percent: 101 }, raw), "percent")
    rawInvalid(await api.post(progressPath(course.id, lessonId), { percent: -1 }, raw), "percent")
    rawInvalid(await api.post(progressPath(course.id, lessonId), { completed: "yes" }, raw), "completed")
    rawInvalid(
      await api.post(progressPath(course.id, lessonId), { lastPositionSeconds: 1.5 }, raw),
      "lastPositionSeconds"
    )
    await invalid(progress(member, course.id, lessonId, {}), "body")
    rawInvalid(await api.post(progressPath(course.id, "l1"), { percent: 1 }, raw), "lessonId", "params")
  })
})

describe("drip (releaseAfterDays)", () => {
  it("locks a lesson until that many days after enrollment, withholding its content", async () => {
    const course = await createCourse(typed, setup)
    const module = await createModule(typed, setup, course.id)
    const now = await createLesson(typed, setup, module.id, { title: "Já", releaseAfterDays: 0 })
    const later = await createLesson(typed, setup, module.id, {
      title: "Depois",
      type: "video",
      videoUrl: "https://video.roda.test/2",
      body: "notas",
      releaseAfterDays: 3
    })
    await publish(typed, setup, course.id)
    const { client: member } = await learner()
    const lessonsOf = async (viewer: RodaClient) => (await detailOf(viewer, course.id)).modules[0]!.lessons

    // Not enrolled: the clock has not started.
    const before = await lessonsOf(member)
    expect(before[0]).toMatchObject({ title: "Já", locked: false, body: "Conteúdo" })
    expect(before[1]).toMatchObject({
      locked: true,
      videoUrl: null,
      body: null,
      availableAt: null,
      releaseAfterDays: 3
    })

    const enrollment = (await enroll(member, course.id)).data
    const locked = (await lessonsOf(member))[1]!
    expect(locked).toMatchObject({ locked: true, videoUrl: null, body: null })
    expect(Date.parse(locked.availableAt ?? "") - Date.parse(enrollment.enrolledAt)).toBe(3 * DAY)
    const refused = await fails(progress(member, course.id, later.id, { percent: 10 }), 409)
    expect(refused.text.pt).toBe(`Esta aula será liberada em ${locked.availableAt}.`)
    await ok(progress(member, course.id, now.id, { completed: true }))

    // Staff see everything unlocked.
    expect((await lessonsOf(owner()))[1]).toMatchObject({ locked: false, videoUrl: "https://video.roda.test/2" })

    // Three days later (the enrollment moved into the past) the lesson opens.
    await query(
      roda,
      (sql) =>
        sql`UPDATE enrollments SET enrolled_at = enrolled_at - interval '3 days' - interval '1 minute'
        WHERE id = ${enrollment.id} RETURNING id`
    )
    expect((await lessonsOf(member))[1]).toMatchObject({
      locked: false,
      videoUrl: "https://video.roda.test/2",
      body: "notas"
    })
    await ok(progress(member, course.id, later.id, { percent: 10 }))
  })

  it("refuses a negative or non-integer delay (400)", async () => {
    const module = await createModule(typed, setup, (await createCourse(typed, setup)).id)
    // (raw: the contract's types refuse these)
    for (const releaseAfterDays of [-1, 1.5, "3"]) {
      const reply = await api.post("/api/courses/lesson", {
        moduleId: module.id,
        title: "X",
        type: "text",
        body: "b",
        releaseAfterDays
      }, as(setup.owner, setup.community))
      rawInvalid(reply, "releaseAfterDays")
    }
  })
})
