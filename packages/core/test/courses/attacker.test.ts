import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../../testing/skips"
import { contract, fails, ok, okAt, statusOf } from "../support/contract"
import { holdTransaction, lockWaiters } from "../support/coursesAttacker"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  createModule,
  MODULE_NOT_FOUND,
  ownerOf,
  publishedCourse
} from "./support"

const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api, "Ataque")
})
const owner = () => ownerOf(typed, setup)
const today = () => new Date().toISOString().slice(0, 10)

describe("completion of a course whose last two lessons are completed at once", () => {
  it("is seen by one of the two calls and announced once (completion job), for every learner", async () => {
    const course = await publishedCourse(typed, setup, { modules: 1, lessons: 2 })
    const [l1, l2] = course.modules[0]!.lessons
    for (let i = 0; i < 4; i++) {
      const learner = await setup.addMember("member")
      const learning = typed.as(learner, setup.community).courses
      await okAt(learning.enroll({ path: { courseId: course.id }, withResponse: true }), 201)
      const replies = await Promise.all(
        [l1!, l2!].map((lesson) =>
          ok(learning.progress({ path: { courseId: course.id, lessonId: lesson.id }, payload: { completed: true } }))
        )
      )
      const seen = replies.map((reply) => reply.data.course.completedLessons)
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
    const scoped = ownerOf(typed, own)
    const learner = typed.as(await own.addMember("member"), own.community)
    const shrunk = await publishedCourse(typed, own, { modules: 1, lessons: 2 })
    const removed = await publishedCourse(typed, own, { modules: 1, lessons: 2 })
    for (const course of [shrunk, removed]) {
      await okAt(learner.courses.enroll({ path: { courseId: course.id }, withResponse: true }), 201)
      const first = course.modules[0]!.lessons[0]!
      await ok(
        learner.courses.progress({ path: { courseId: course.id, lessonId: first.id }, payload: { completed: true } })
      )
    }
    // The lesson the learner completed goes away: one lesson is left, not completed.
    await ok(scoped.courses.removeLesson({ path: { lessonId: shrunk.modules[0]!.lessons[0]!.id } }))
    expect((await ok(learner.courses.detail({ path: { id: shrunk.id } }))).data.completion).toEqual({
      completedLessons: 0,
      totalLessons: 1,
      percent: 0
    })
    // A removed course is completed by nobody.
    await ok(scoped.courses.remove({ path: { id: removed.id } }))

    const report = (await ok(scoped.reports.courses({ urlParams: { from: today(), to: today() } }))).data
    // (The removed course took its enrollment with it; lesson completions are history and stay.)
    expect(report.totals).toEqual({ enrollments: 1, lessonCompletions: 2, completions: 0 })
  })
})

skipWhen(POSTGRES_ONLY).describe("races on PostgreSQL", () => {
  it("a course moved back to draft while a member enrolls: never a draft with an enrollment", async () => {
    const course = await publishedCourse(typed, setup)
    const member = typed.as(await setup.addMember("member"), setup.community)
    // Another edit of the course holds its row: the move back to draft has counted no enrollment and waits.
    const held = await holdTransaction(
      roda,
      (sql) => sql`SELECT id FROM courses WHERE id = ${course.id} FOR NO KEY UPDATE`
    )
    const unpublishing = statusOf(
      owner().courses.update({ path: { id: course.id }, payload: { status: "draft" }, withResponse: true })
    )
    expect(await lockWaiters(roda, 1)).toBe(1)
    const enrolling = statusOf(member.courses.enroll({ path: { courseId: course.id }, withResponse: true }))
    await lockWaiters(roda, 2, 500)
    await held.commit()
    const statuses = await Promise.all([unpublishing, enrolling])

    const [row] = await query<{ status: string; enrollments: number }>(
      roda,
      (sql) =>
        sql`SELECT status, (SELECT count(*)::int FROM enrollments WHERE course_id = ${course.id}) AS enrollments
          FROM courses WHERE id = ${course.id}`
    )
    // One of them wins: published with the enrollment, or a draft nobody is enrolled in.
    expect(row!.status === "draft" && row!.enrollments > 0).toBe(false)
    expect(statuses.sort()).toEqual(row!.status === "draft" ? [200, 409] : [201, 409])
  })

  it("a course removed while a member enrolls: 404, never a 500", async () => {
    const course = await publishedCourse(typed, setup)
    const member = typed.as(await setup.addMember("member"), setup.community)
    const held = await holdTransaction(roda, (sql) => sql`DELETE FROM courses WHERE id = ${course.id}`)
    // Its exit: a promise that rejected before anything awaited it would be reported unhandled.
    const enrolling = Effect.runPromiseExit(member.courses.enroll({ path: { courseId: course.id } }))
    expect(await lockWaiters(roda, 1)).toBe(1)
    await held.commit()
    await fails(await enrolling, 404, COURSE_NOT_FOUND)
  })

  it("a module reordered while it is removed: 404, and the other modules keep orders 0..n-1", async () => {
    const course = await createCourse(typed, setup)
    const [a, b, c] = [
      await createModule(typed, setup, course.id, { title: "A" }),
      await createModule(typed, setup, course.id, { title: "B" }),
      await createModule(typed, setup, course.id, { title: "C" })
    ]
    // B is removed (as DELETE /api/courses/module/{id} does it, under the course lock) while the reorder waits.
    const held = await holdTransaction(roda, (sql) =>
      Effect.all([
        sql`SELECT id FROM courses WHERE id = ${course.id} FOR UPDATE`,
        sql`DELETE FROM course_modules WHERE id = ${b!.id}`,
        sql`UPDATE course_modules SET position = 1 WHERE id = ${c!.id}`
      ]))
    const reordering = Effect.runPromiseExit(
      owner().courses.updateModule({ path: { moduleId: b!.id }, payload: { order: 0 } })
    )
    expect(await lockWaiters(roda, 1)).toBe(1)
    await held.commit()
    await fails(await reordering, 404, MODULE_NOT_FOUND)
    const outline = (await ok(owner().courses.detail({ path: { id: course.id } }))).data
    expect(outline.modules.map((m) => [m.id, m.order])).toEqual([[a!.id, 0], [
      c!.id,
      1
    ]])
  })
})
