import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CourseAnswer } from "../src/courses/Api"
import { as } from "./support/community"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createLesson,
  createModule,
  publish,
  publishedCourse
} from "./support/courses"
import { expectCreated, expectError, expectInvalid, expectOk, expectPlainJson, unknownId } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { query } from "./support/sql"
import { setGrants } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
})
const owner = () => as(setup.owner, setup.community)
const learner = async () => as(await setup.addMember("member"), setup.community)
const progressPath = (courseId: string, lessonId: string) => `/api/courses/${courseId}/lesson/${lessonId}/progress`
const DAY = 24 * 60 * 60 * 1000

describe("POST /api/courses/:courseId/enroll", () => {
  it("enrolls once: 201, then 200 with the same enrollment", async () => {
    const course = await publishedCourse(api, setup)
    const options = await learner()
    const first = expectCreated(
      await api.post(`/api/courses/${course.id}/enroll`, undefined, options),
      "Inscrição realizada com sucesso."
    )
    expect(first).toMatchObject({ courseId: course.id, alreadyEnrolled: false })
    const again = expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, options), 200)
    expect(again).toEqual({ ...first, alreadyEnrolled: true })
  })

  it("refuses a draft course (409), even to staff", async () => {
    const course = await createCourse(api, setup)
    const message = "Só é possível se inscrever em um curso publicado."
    expectError(await api.post(`/api/courses/${course.id}/enroll`, undefined, await learner()), 409, message)
    expectError(await api.post(`/api/courses/${course.id}/enroll`, undefined, owner()), 409, message)
  })

  it("needs access to the content of the course's space (403), and the course in this community", async () => {
    const course = await publishedCourse(api, setup)
    await setGrants(roda, setup.space.id, { plans: [unknownId()] })
    try {
      expectError(await api.post(`/api/courses/${course.id}/enroll`, undefined, await learner()), 403)
    } finally {
      await setGrants(roda, setup.space.id, {})
    }
    const other = await courseCommunity(api, "Outra")
    const foreign = await publishedCourse(api, other)
    expectError(await api.post(`/api/courses/${foreign.id}/enroll`, undefined, owner()), 404, COURSE_NOT_FOUND)
    expectError(await api.post(`/api/courses/${unknownId()}/enroll`, undefined, owner()), 404, COURSE_NOT_FOUND)
  })
})

describe("GET /api/courses/:identifier (times)", () => {
  it("answers the outline's times as the writes answered them, to the millisecond", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id)
    const lesson = await createLesson(api, setup, module.id)
    await publish(api, setup, course.id)
    const options = await learner()
    const enrollment = expectCreated(await api.post(`/api/courses/${course.id}/enroll`, undefined, options))
    const progress = expectOk(await api.post(progressPath(course.id, lesson.id), { completed: true }, options))

    const detail = expectOk(await api.get(`/api/courses/${course.id}`, options))
    expect(detail.modules[0]).toMatchObject({ createdAt: module.createdAt, updatedAt: module.updatedAt })
    expect(detail.modules[0].lessons[0]).toMatchObject({ createdAt: lesson.createdAt, updatedAt: lesson.updatedAt })
    expect(detail.enrollment.enrolledAt).toBe(enrollment.enrolledAt)
    expect(detail.modules[0].lessons[0].progress).toEqual({
      completed: true,
      percent: 100,
      lastPositionSeconds: progress.lastPositionSeconds,
      completedAt: progress.completedAt,
      updatedAt: progress.updatedAt
    })
  })
})

describe("POST /api/courses/:courseId/lesson/:lessonId/progress", () => {
  it("records progress and reports completion (completed lessons / lessons)", async () => {
    const course = await publishedCourse(api, setup, { modules: 2, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    const l3 = course.modules[1]!.lessons[0]!
    const options = await learner()
    await api.post(`/api/courses/${course.id}/enroll`, undefined, options)

    const partial = expectOk(
      await api.post(progressPath(course.id, l1!.id), { percent: 40, lastPositionSeconds: 95 }, options),
      200,
      "Progresso registrado com sucesso."
    )
    expect(partial).toMatchObject({
      lessonId: l1!.id,
      courseId: course.id,
      completed: false,
      percent: 40,
      lastPositionSeconds: 95,
      completedAt: null,
      course: { completedLessons: 0, totalLessons: 4, percent: 0 }
    })
    const done = expectOk(await api.post(progressPath(course.id, l1!.id), { completed: true }, options))
    expect(done).toMatchObject({ completed: true, percent: 100, lastPositionSeconds: 95 })
    expect(done.completedAt).not.toBeNull()
    expectOk(await api.post(progressPath(course.id, l2!.id), { completed: true, percent: 100 }, options))
    const third = expectOk(await api.post(progressPath(course.id, l3.id), { completed: true }, options))
    expect(third.course).toEqual({ completedLessons: 3, totalLessons: 4, percent: 75 })

    const detailReply = await api.get(`/api/courses/${course.id}`, options)
    const detail = expectOk(detailReply)
    expectPlainJson(CourseAnswer, detailReply.body)
    expect(detail.completion).toEqual({ completedLessons: 3, totalLessons: 4, percent: 75 })
    expect(detail.enrollment).toMatchObject({ courseId: course.id })
    expect(detail.modules[0].lessons[0].progress).toMatchObject({
      completed: true,
      percent: 100,
      lastPositionSeconds: 95
    })
    expect(detail.modules[1].lessons[1].progress).toBeNull()

    // Undoing completion keeps the other fields.
    const undone = expectOk(await api.post(progressPath(course.id, l1!.id), { completed: false }, options))
    expect(undone).toMatchObject({ completed: false, percent: 100, completedAt: null })
    expect(undone.course.completedLessons).toBe(2)

    // Anonymous visitors get no progress; staff who never enrolled get an empty one.
    const anonymous = expectOk(await api.get(`/api/courses/${course.id}`, { community: setup.community.id }))
    expect(anonymous).toMatchObject({ enrollment: null, completion: null })
    expect(expectOk(await api.get(`/api/courses/${course.id}`, owner())).completion).toEqual({
      completedLessons: 0,
      totalLessons: 4,
      percent: 0
    })
  })

  it("keeps progress when the lesson is deleted, and counts only current lessons", async () => {
    const course = await publishedCourse(api, setup, { modules: 1, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    const options = await learner()
    await api.post(`/api/courses/${course.id}/enroll`, undefined, options)
    expectOk(await api.post(progressPath(course.id, l1!.id), { completed: true }, options))
    expectOk(await api.del(`/api/courses/lesson/${l1!.id}`, owner()))
    const rows = await query(roda, (sql) => sql`SELECT completed FROM lesson_progress WHERE lesson_id = ${l1!.id}`)
    expect(rows).toEqual([{ completed: true }])
    const detail = expectOk(await api.get(`/api/courses/${course.id}`, options))
    expect(detail.completion).toEqual({ completedLessons: 0, totalLessons: 1, percent: 0 })
    expectOk(await api.post(progressPath(course.id, l2!.id), { completed: true }, options))
    expect(expectOk(await api.get(`/api/courses/${course.id}`, options)).completion.percent).toBe(100)
  })

  it("requires an enrollment (409)", async () => {
    const course = await publishedCourse(api, setup)
    const reply = await api.post(
      progressPath(course.id, course.modules[0]!.lessons[0]!.id),
      { percent: 10 },
      await learner()
    )
    expectError(reply, 409, "Inscreva-se no curso antes de registrar progresso.")
  })

  it("answers 404 for a lesson not in that course", async () => {
    const course = await publishedCourse(api, setup)
    const otherCourse = await publishedCourse(api, setup)
    const options = await learner()
    await api.post(`/api/courses/${course.id}/enroll`, undefined, options)
    for (const lessonId of [otherCourse.modules[0]!.lessons[0]!.id, unknownId()]) {
      expectError(
        await api.post(progressPath(course.id, lessonId), { percent: 10 }, options),
        404,
        "Aula não encontrada."
      )
    }
    expectError(
      await api.post(progressPath(unknownId(), course.modules[0]!.lessons[0]!.id), { percent: 1 }, options),
      404,
      COURSE_NOT_FOUND
    )
  })

  it("answers malformed input with 400", async () => {
    const course = await publishedCourse(api, setup)
    const lessonId = course.modules[0]!.lessons[0]!.id
    const options = await learner()
    await api.post(`/api/courses/${course.id}/enroll`, undefined, options)
    expectInvalid(await api.post(progressPath(course.id, lessonId), { percent: 101 }, options), "percent")
    expectInvalid(await api.post(progressPath(course.id, lessonId), { percent: -1 }, options), "percent")
    expectInvalid(await api.post(progressPath(course.id, lessonId), { completed: "yes" }, options), "completed")
    expectInvalid(
      await api.post(progressPath(course.id, lessonId), { lastPositionSeconds: 1.5 }, options),
      "lastPositionSeconds"
    )
    expectInvalid(await api.post(progressPath(course.id, lessonId), {}, options), "body")
    expectInvalid(await api.post(progressPath(course.id, "l1"), { percent: 1 }, options), "lessonId", "params")
  })
})

describe("drip (releaseAfterDays)", () => {
  it("locks a lesson until that many days after enrollment, withholding its content", async () => {
    const course = await createCourse(api, setup)
    const module = await createModule(api, setup, course.id)
    const now = await createLesson(api, setup, module.id, { title: "Já", releaseAfterDays: 0 })
    const later = await createLesson(api, setup, module.id, {
      title: "Depois",
      type: "video",
      videoUrl: "https://video.roda.test/2",
      body: "notas",
      releaseAfterDays: 3
    })
    await publish(api, setup, course.id)
    const options = await learner()
    const lessonsOf = async (opts: object) =>
      expectOk(await api.get(`/api/courses/${course.id}`, opts)).modules[0].lessons as Array<any>

    // Not enrolled: the clock has not started.
    const before = await lessonsOf(options)
    expect(before[0]).toMatchObject({ title: "Já", locked: false, body: "Conteúdo" })
    expect(before[1]).toMatchObject({
      locked: true,
      videoUrl: null,
      body: null,
      availableAt: null,
      releaseAfterDays: 3
    })

    const enrollment = expectCreated(await api.post(`/api/courses/${course.id}/enroll`, undefined, options))
    const locked = (await lessonsOf(options))[1]
    expect(locked).toMatchObject({ locked: true, videoUrl: null, body: null })
    expect(Date.parse(locked.availableAt) - Date.parse(enrollment.enrolledAt)).toBe(3 * DAY)
    const refused = await api.post(progressPath(course.id, later.id), { percent: 10 }, options)
    expect(expectError(refused, 409).message).toBe(`Esta aula será liberada em ${locked.availableAt}.`)
    expectOk(await api.post(progressPath(course.id, now.id), { completed: true }, options))

    // Staff see everything unlocked.
    expect((await lessonsOf(owner()))[1]).toMatchObject({ locked: false, videoUrl: "https://video.roda.test/2" })

    // Three days later (the enrollment moved into the past) the lesson opens.
    await query(
      roda,
      (sql) =>
        sql`UPDATE enrollments SET enrolled_at = enrolled_at - interval '3 days' - interval '1 minute'
        WHERE id = ${enrollment.id} RETURNING id`
    )
    expect((await lessonsOf(options))[1]).toMatchObject({
      locked: false,
      videoUrl: "https://video.roda.test/2",
      body: "notas"
    })
    expectOk(await api.post(progressPath(course.id, later.id), { percent: 10 }, options))
  })

  it("refuses a negative or non-integer delay (400)", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    for (const releaseAfterDays of [-1, 1.5, "3"]) {
      const reply = await api.post("/api/courses/lesson", {
        moduleId: module.id,
        title: "X",
        type: "text",
        body: "b",
        releaseAfterDays
      }, owner())
      expectInvalid(reply, "releaseAfterDays")
    }
  })
})
