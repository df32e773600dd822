import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "./support/community"
import { COURSE_NOT_FOUND, type CourseCommunity, courseCommunity, createCourse, publish } from "./support/courses"
import { expectError, expectOk, unknownId } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"
import { createSpace, entitle, setGrants } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

/**
 * One community, one public section with four courses spaces: public, private, gated (public,
 * with a plan grant) and secret (with the same grant). A published course in each, and a draft.
 */
let setup: CourseCommunity
const plan = unknownId()
const courses: Record<"public" | "private" | "gated" | "secret" | "draft", { id: string; slug: string }> = {} as never
let viewers: Record<"member" | "entitled" | "moderator", { token: string }>
beforeAll(async () => {
  setup = await courseCommunity(api, "Acesso")
  const spaces = {
    public: setup.space,
    private: await createSpace(api, setup, setup.section.id, { visibility: "private", title: "Privado" }),
    gated: await createSpace(api, setup, setup.section.id, { visibility: "public", title: "Pago" }),
    secret: await createSpace(api, setup, setup.section.id, { visibility: "secret", title: "Secreto" })
  }
  await setGrants(roda, spaces.gated.id, { plans: [plan] })
  await setGrants(roda, spaces.secret.id, { plans: [plan] })
  for (const [name, space] of Object.entries(spaces)) {
    const course = await createCourse(api, { ...setup, space }, { title: `Curso ${name}` })
    await publish(api, setup, course.id)
    courses[name as keyof typeof spaces] = course
  }
  courses.draft = await createCourse(api, setup, { title: "Rascunho" })
  const entitled = await setup.addMember("member")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  viewers = { member: await setup.addMember("member"), entitled, moderator: await setup.addMember("moderator") }
})

const detail = (name: keyof typeof courses, viewer?: { token: string }) =>
  api.get(`/api/courses/${courses[name].id}`, viewer ? as(viewer, setup.community) : { community: setup.community.id })

const listed = async (viewer: { token: string }) =>
  expectOk(await api.get("/api/courses?limit=100", as(viewer, setup.community))).map((c: { id: string }) => c.id)

describe("GET /api/courses/{identifier} (Public)", () => {
  it("shows an anonymous visitor only published courses of readable public spaces", async () => {
    expectOk(await detail("public"), 200, "Curso encontrado.")
    expectOk(await api.get(`/api/courses/${courses.public.slug}`, { community: setup.community.id }))
    expectError(await detail("private"), 404)
    expectError(await detail("secret"), 404)
    expectError(await detail("gated"), 403)
    expectError(await detail("draft"), 404, COURSE_NOT_FOUND)
  })

  it("shows a member public and private spaces; gated content and secret spaces need an entitlement", async () => {
    expectOk(await detail("public", viewers.member))
    expectOk(await detail("private", viewers.member))
    expectError(await detail("gated", viewers.member), 403)
    expectError(await detail("secret", viewers.member), 404)
    expectError(await detail("draft", viewers.member), 404, COURSE_NOT_FOUND)

    for (const name of ["public", "private", "gated", "secret"] as const) expectOk(await detail(name, viewers.entitled))
    expectError(await detail("draft", viewers.entitled), 404)
  })

  it("shows staff everything, drafts included", async () => {
    for (const name of ["public", "private", "gated", "secret", "draft"] as const) {
      expectOk(await detail(name, viewers.moderator))
      expectOk(await detail(name, setup.owner))
    }
  })

  it("treats a non-member's token like an anonymous visit, and another community's course as not found", async () => {
    const stranger = await register(api, "Sara Stranger")
    expectOk(await api.get(`/api/courses/${courses.public.id}`, as(stranger, setup.community)))
    expectError(await api.get(`/api/courses/${courses.private.id}`, as(stranger, setup.community)), 404)
    const other = await courseCommunity(api, "Outra")
    const foreign = await createCourse(api, other)
    await publish(api, other, foreign.id)
    expectError(await api.get(`/api/courses/${foreign.id}`, { community: setup.community.id }), 404, COURSE_NOT_FOUND)
    expectError(await api.get(`/api/courses/${foreign.slug}`, as(setup.owner, setup.community)), 404, COURSE_NOT_FOUND)
    expectError(await api.get("/api/courses/module", { community: setup.community.id }), 404)
  })
})

describe("GET /api/courses (access)", () => {
  it("lists to a member only published courses of spaces whose content they may read", async () => {
    expect(new Set(await listed(viewers.member))).toEqual(new Set([courses.public.id, courses.private.id]))
    expect(new Set(await listed(viewers.entitled))).toEqual(
      new Set([courses.public.id, courses.private.id, courses.gated.id, courses.secret.id])
    )
    const drafts = await api.get("/api/courses?status=draft", as(viewers.member, setup.community))
    expect(expectOk(drafts)).toEqual([])
  })

  it("lists every course to staff, drafts included", async () => {
    const all = Object.values(courses).map((c) => c.id)
    expect(new Set(await listed(viewers.moderator))).toEqual(new Set(all))
  })

  it("requires a member (401 without a token, 403 for a non-member)", async () => {
    expectError(await api.get("/api/courses", { community: setup.community.id }), 401)
    const stranger = await register(api)
    expectError(
      await api.get("/api/courses", as(stranger, setup.community)),
      403,
      "Você não é membro desta comunidade."
    )
  })
})
