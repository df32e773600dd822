import { Effect, Either, Option, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Courses } from "../src/courses/Courses"
import type { AppError } from "../src/domain/AppError"
import type { Member } from "../src/domain/Caller"
import { type Viewer, viewerOfMember } from "../src/structure/Access"
import { accountOf } from "./support/auth"
import { as } from "./support/community"
import { type CourseCommunity, courseCommunity, publishedCourse } from "./support/courses"
import { expectOk } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { createSpace } from "./support/structure"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
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
    communityId: setup.community.id,
    profileId: user.profileId,
    role: "member",
    actingProfileId: user.profileId
  }
})

describe("course detail", () => {
  it("loads in one statement whatever the viewer and the number of modules and lessons", async () => {
    const small = await publishedCourse(api, setup, { modules: 1, lessons: 2 })
    const large = await publishedCourse(api, setup, { modules: 4, lessons: 5 })
    for (const course of [small, large]) {
      // The learner is enrolled and has progress, so every branch of the detail runs.
      expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, as(learner, setup.community)), 201)
      const lesson = course.modules[0]!.lessons[0]!.id
      expectOk(
        await api.post(
          `/api/courses/${course.id}/lesson/${lesson}/progress`,
          { completed: true },
          as(learner, setup.community)
        )
      )
    }
    const anonymous: Viewer = { communityId: setup.community.id, member: Option.none() }
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
    const course = await publishedCourse(api, { ...setup, space: privateSpace }, { modules: 1, lessons: 1 })
    const anonymous: Viewer = { communityId: setup.community.id, member: Option.none() }
    // The detail statement, then the space as the visitor sees it (hidden: 404).
    expect(await statementsOfDetail(anonymous, course.id)).toEqual({ statements: 2, lessons: undefined, status: 404 })
    expect(await statementsOfDetail(viewerOfMember(member), course.slug)).toMatchObject({ statements: 1, lessons: 1 })
  })
})
