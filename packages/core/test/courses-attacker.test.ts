import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../testing/skips"
import { as } from "./support/community"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createModule,
  MODULE_NOT_FOUND,
  publishedCourse
} from "./support/courses"
import { holdTransaction, lockWaiters } from "./support/coursesAttacker"
import { expectError, expectOk } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { query } from "./support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api, "Ataque")
})
const owner = () => as(setup.owner, setup.community)
const progressPath = (courseId: string, lessonId: string) => `/api/courses/${courseId}/lesson/${lessonId}/progress`
const today = () => new Date().toISOString().slice(0, 10)

describe("completion of a course whose last two lessons are completed at once", () => {
  it("is seen by one of the two calls and announced once (completion job), for every learner", async () => {
    const course = await publishedCourse(api, setup, { modules: 1, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    for (let i = 0; i < 4; i++) {
      const learner = await setup.addMember("member")
      const options = as(learner, setup.community)
      expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, options), 201)
      const replies = await Promise.all(
        [l1!, l2!].map((lesson) => api.post(progressPath(course.id, lesson.id), { completed: true }, options))
      )
      const seen = replies.map((reply) => expectOk(reply).course.completedLessons as number)
      expect(Math.max(...seen)).toBe(2)
      const jobs = await query<{ count: number }>(
        roda,
        (sql) =>
          sql`SELECT count(*)::int AS count FROM jobs
            WHERE kind = 'courses.completed' AND key = ${`${course.id}:${learner.profileId}`}`
      )
      expect(jobs[0]!.count).toBe(1)
    }
  })
})

describe("courses report (GET /api/reports/courses)", () => {
  it("counts a course completion only when every current lesson of the course is completed", async () => {
    const own = await courseCommunity(api, "Relatorio")
    const scoped = as(own.owner, own.community)
    const learner = as(await own.addMember("member"), own.community)
    const shrunk = await publishedCourse(api, own, { modules: 1, lessons: 2 })
    const removed = await publishedCourse(api, own, { modules: 1, lessons: 2 })
    for (const course of [shrunk, removed]) {
      expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, learner), 201)
      const first = course.modules[0]!.lessons[0]!
      expectOk(await api.post(progressPath(course.id, first.id), { completed: true }, learner))
    }
    // The lesson the learner completed goes away: one lesson is left, not completed.
    expectOk(await api.del(`/api/courses/lesson/${shrunk.modules[0]!.lessons[0]!.id}`, scoped))
    expect(expectOk(await api.get(`/api/courses/${shrunk.id}`, learner)).completion).toEqual({
      completedLessons: 0,
      totalLessons: 1,
      percent: 0
    })
    // A removed course is completed by nobody.
    expectOk(await api.del(`/api/courses/${removed.id}`, scoped))

    const report = expectOk(await api.get(`/api/reports/courses?from=${today()}&to=${today()}`, scoped))
    // (The removed course took its enrollment with it; lesson completions are history and stay.)
    expect(report.totals).toEqual({ enrollments: 1, lessonCompletions: 2, completions: 0 })
  })
})

skipWhen(POSTGRES_ONLY).describe("races on PostgreSQL", () => {
  it("a course moved back to draft while a member enrolls: never a draft with an enrollment", async () => {
    const course = await publishedCourse(api, setup)
    const member = as(await setup.addMember("member"), setup.community)
    // Another edit of the course holds its row: the move back to draft has counted no enrollment and waits.
    const held = await holdTransaction(
      roda,
      (sql) => sql`SELECT id FROM courses WHERE id = ${course.id} FOR NO KEY UPDATE`
    )
    const unpublishing = api.put(`/api/courses/${course.id}`, { status: "draft" }, owner())
    expect(await lockWaiters(roda, 1)).toBe(1)
    const enrolling = api.post(`/api/courses/${course.id}/enroll`, undefined, member)
    await lockWaiters(roda, 2, 500)
    await held.commit()
    const [unpublished, enrolled] = await Promise.all([unpublishing, enrolling])

    const [row] = await query<{ status: string; enrollments: number }>(
      roda,
      (sql) =>
        sql`SELECT status, (SELECT count(*)::int FROM enrollments WHERE course_id = ${course.id}) AS enrollments
          FROM courses WHERE id = ${course.id}`
    )
    // One of them wins: published with the enrollment, or a draft nobody is enrolled in.
    expect(row!.status === "draft" && row!.enrollments > 0).toBe(false)
    expect([unpublished.status, enrolled.status].sort()).toEqual(row!.status === "draft" ? [200, 409] : [201, 409])
  })

  it("a course removed while a member enrolls: 404, never a 500", async () => {
    const course = await publishedCourse(api, setup)
    const member = as(await setup.addMember("member"), setup.community)
    const held = await holdTransaction(roda, (sql) => sql`DELETE FROM courses WHERE id = ${course.id}`)
    const enrolling = api.post(`/api/courses/${course.id}/enroll`, undefined, member)
    expect(await lockWaiters(roda, 1)).toBe(1)
    await held.commit()
    expectError(await enrolling, 404, COURSE_NOT_FOUND)
  })

  it("a module reordered while it is removed: 404, and the other modules keep orders 0..n-1", async () => {
    const course = await createCourse(api, setup)
    const [a, b, c] = [
      await createModule(api, setup, course.id, { title: "A" }),
      await createModule(api, setup, course.id, { title: "B" }),
      await createModule(api, setup, course.id, { title: "C" })
    ]
    // B is removed (as DELETE /api/courses/module/{id} does it, under the course lock) while the reorder waits.
    const held = await holdTransaction(roda, (sql) =>
      Effect.all([
        sql`SELECT id FROM courses WHERE id = ${course.id} FOR UPDATE`,
        sql`DELETE FROM course_modules WHERE id = ${b!.id}`,
        sql`UPDATE course_modules SET position = 1 WHERE id = ${c!.id}`
      ]))
    const reordering = api.put(`/api/courses/module/${b!.id}`, { order: 0 }, owner())
    expect(await lockWaiters(roda, 1)).toBe(1)
    await held.commit()
    expectError(await reordering, 404, MODULE_NOT_FOUND)
    const outline = expectOk(await api.get(`/api/courses/${course.id}`, owner()))
    expect(outline.modules.map((m: { id: string; order: number }) => [m.id, m.order])).toEqual([[a!.id, 0], [
      c!.id,
      1
    ]])
  })
})
