import { SqlClient } from "@effect/sql"
import { Effect, Either, Option, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Courses } from "../../src/courses/Courses"
import type { AppError } from "../../src/domain/AppError"
import type { Member } from "../../src/domain/Caller"
import { CommunityId, ProfileId } from "../../src/domain/Ids"
import { type Viewer, viewerOfMember } from "../../src/structure/Access"
import { accountOf } from "../support/auth"
import { contract, fails, ok, okAt, rawFails } from "../support/contract"
import { client, register, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { createSpace } from "../support/structure"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  publish,
  publishedCourse
} from "./support"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

/**
 * Runs the course detail with a tracer that counts the spans @effect/sql opens for every
 * statement ("sql.execute", see @effect/sql internal/statement.ts).
 */
const statementsOfDetail = (viewer: Viewer, identifier: string) =>
  roda.runtime.runPromise(Effect.gen(function*() {
    const base = yield* Effect.tracer
    let statements = 0
    const counting = Tracer.make({
      span: (name, ...rest) => {
        if (name === "sql.execute") statements++
        return base.span(name, ...rest)
      },
      context: base.context
    })
    const courses = yield* Courses
    const detail = yield* courses.detail(viewer, identifier).pipe(Effect.withTracer(counting), Effect.either)
    return {
      statements,
      lessons: Either.isRight(detail) ? detail.right.lessonCount : undefined,
      status: Either.isLeft(detail) ? (detail.left as AppError).status : 200
    }
  }))

let setup: CourseCommunity
let member: Member
let learner: { token: string }
beforeAll(async () => {
  setup = await courseCommunity(api, "Consultas")
  const user = await setup.addMember("member")
  learner = user
  member = {
    account: accountOf(user),
    communityId: CommunityId.make(setup.community.id),
    profileId: ProfileId.make(user.profileId),
    role: "member",
    actingProfileId: ProfileId.make(user.profileId)
  }
})

/** Enrolls the learner and completes the course's first lesson, so every branch of the detail runs. */
const enrollWithProgress = async (course: Awaited<ReturnType<typeof publishedCourse>>) => {
  const learning = typed.as(learner, setup.community).courses
  await okAt(learning.enroll({ path: { courseId: course.id }, withResponse: true }), 201)
  const lessonId = course.modules[0]!.lessons[0]!.id
  await ok(learning.progress({ path: { courseId: course.id, lessonId }, payload: { completed: true } }))
}

/** GET /api/courses/{identifier} as `viewer` in the community (anonymous without one). */
const detail = (identifier: string, viewer?: { token: string }) =>
  (viewer ? typed.as(viewer, setup.community) : typed.anonymous(setup.community)).courses.detail({
    path: { id: identifier }
  })

describe("course detail", () => {
  it("loads in one statement whatever the viewer and the number of modules and lessons", async () => {
    const small = await publishedCourse(typed, setup, { modules: 1, lessons: 2 })
    const large = await publishedCourse(typed, setup, { modules: 4, lessons: 5 })
    for (const course of [small, large]) {
      await enrollWithProgress(course)
    }
    const anonymous: Viewer = { communityId: CommunityId.make(setup.community.id), member: Option.none() }
    for (const viewer of [viewerOfMember(member), viewerOfMember({ ...member, role: "owner" }), anonymous]) {
      const few = await statementsOfDetail(viewer, small.id)
      const many = await statementsOfDetail(viewer, large.slug)
      expect([few.lessons, many.lessons]).toEqual([2, 20])
      // The course with the access decision and the outline (with enrollment and progress for a member).
      expect([few.statements, many.statements]).toEqual([1, 1])
    }
  })

  it("tells a viewer who may not read the space why, in a second statement", async () => {
    const privateSpace = await createSpace(api, setup, setup.section.id, { visibility: "private", title: "Privado" })
    const course = await publishedCourse(typed, { ...setup, space: privateSpace }, { modules: 1, lessons: 1 })
    const anonymous: Viewer = { communityId: CommunityId.make(setup.community.id), member: Option.none() }
    // The detail statement, then the space as the visitor sees it (hidden: 404).
    expect(await statementsOfDetail(anonymous, course.id)).toEqual({ statements: 2, lessons: undefined, status: 404 })
    expect(await statementsOfDetail(viewerOfMember(member), course.slug)).toMatchObject({ statements: 1, lessons: 1 })
  })
})

const deleteAccount = (id: string) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM accounts WHERE id = ${id}`))

/**
 * Through HTTP the detail is a Public route whose caller is read in the detail's own statement
 * (`DeferredPublicScope`): one round trip for a caller with a token, where PublicScope took two.
 */
describe("GET /api/courses/{identifier} statements", () => {
  it("answers a member in 1 statement, as the detail answers once the caller is read", async () => {
    const course = await publishedCourse(typed, setup, { modules: 2, lessons: 3 })
    await enrollWithProgress(course)
    const { n, result } = await statements(() => ok(detail(course.slug, learner)))
    expect(result.message).toBe("Curso encontrado.")
    const data = result.data
    expect(n).toBe(1)
    expect(data.enrollment).not.toBeNull()
    expect(data.completion).toMatchObject({ completedLessons: 1 })
    const read = await roda.runtime.runPromise(
      Effect.flatMap(Courses, (c) => c.detail(viewerOfMember(member), course.id))
    )
    expect(data).toEqual(JSON.parse(JSON.stringify(read)))
    // Naming an X-ProfileId, the caller is read first (its rules need the role): staff see the learner's progress.
    const actingOwner = typed.clientOf({
      token: setup.owner.token,
      communityId: setup.community.id,
      profileId: member.profileId
    })
    const acting = await statements(() => ok(actingOwner.courses.detail({ path: { id: course.slug } })))
    expect(acting.result.data).toEqual(data)
    expect(acting.n).toBeGreaterThan(1)
  })

  it("answers staff a draft, a non-member's token and an anonymous visit in 1 statement", async () => {
    const draft = await createCourse(typed, setup, { title: "Rascunho" })
    const owner = await statements(() => ok(detail(draft.id, setup.owner)))
    expect(owner.result.data.status).toBe("draft")
    expect(owner.n).toBe(1)
    await statements(() => fails(detail(draft.id, learner), 404, COURSE_NOT_FOUND))

    const published = await createCourse(typed, setup, { title: "Publicado" })
    await publish(typed, setup, published.id)
    const stranger = await register(api, "Sara Stranger")
    const strangers = await statements(() => ok(detail(published.id, stranger)))
    expect(strangers.result.data.enrollment).toBeNull()
    expect(strangers.n).toBe(1)
    const anonymous = await statements(() => ok(detail(published.id)))
    expect(anonymous.n).toBe(1)
  })

  it("answers a course that matches none 404 in 1 statement", async () => {
    const { n } = await statements(() => fails(detail("nenhum-curso", learner), 404, COURSE_NOT_FOUND))
    expect(n).toBe(1)
  })

  it("refuses a deleted account's token 401 before any other answer, as PublicScope does", async () => {
    const course = await publishedCourse(typed, setup, { modules: 1, lessons: 1 })
    const gone = await register(api, "Gil Gone")
    await deleteAccount(gone.id)
    for (const identifier of [course.id, course.slug, "nenhum-curso"]) {
      await fails(detail(identifier, gone), 401, "Invalid or expired token")
    }
    // (raw: the contract of the detail declares no 400, so the typed client cannot read this answer)
    rawFails(await api.get(`/api/courses/${course.id}`, { token: gone.token, community: "nope" }), 400)
  })
})

describe("PUT /api/courses/{id} publishing statements", () => {
  it("reads the published course once, for its course.published event and the answer", async () => {
    const course = await createCourse(typed, setup)
    const { emits, n, result } = await statements(() => publish(typed, setup, course.id))
    expect(result.status).toBe("published")
    // The caller, the course, its lock, it again under the lock, the enrollments, the update, the
    // course read once (event and answer), the event.
    expect([n, emits]).toEqual([8, 1])
  })
})
