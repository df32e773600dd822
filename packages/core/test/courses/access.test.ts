import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { contract, fails, ok, rawFails } from "../support/contract"
import { unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { createSpace, entitle, setGrants } from "../support/structure"
import { COURSE_NOT_FOUND, type CourseCommunity, courseCommunity, createCourse, publish } from "./support"

const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
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
    const course = await createCourse(typed, { ...setup, space }, { title: `Curso ${name}` })
    await publish(typed, setup, course.id)
    courses[name as keyof typeof spaces] = course
  }
  courses.draft = await createCourse(typed, setup, { title: "Rascunho" })
  const entitled = await setup.addMember("member")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  viewers = { member: await setup.addMember("member"), entitled, moderator: await setup.addMember("moderator") }
})

/** `viewer` in the community, or an anonymous visitor. */
const clientOf = (viewer?: { token: string }) =>
  viewer ? typed.as(viewer, setup.community) : typed.anonymous(setup.community)
const detail = (name: keyof typeof courses, viewer?: { token: string }) =>
  clientOf(viewer).courses.detail({ path: { id: courses[name].id } })

const listed = async (viewer: { token: string }) =>
  (await ok(clientOf(viewer).courses.list({ urlParams: { limit: 100 } }))).data.map((course) => course.id)

describe("GET /api/courses/{identifier} (Public)", () => {
  it("shows an anonymous visitor only published courses of readable public spaces", async () => {
    expect((await ok(detail("public"))).message).toBe("Curso encontrado.")
    await ok(clientOf().courses.detail({ path: { id: courses.public.slug } }))
    await fails(detail("private"), 404)
    await fails(detail("secret"), 404)
    await fails(detail("gated"), 403)
    await fails(detail("draft"), 404, COURSE_NOT_FOUND)
  })

  it("shows a member public and private spaces; gated content and secret spaces need an entitlement", async () => {
    await ok(detail("public", viewers.member))
    await ok(detail("private", viewers.member))
    await fails(detail("gated", viewers.member), 403)
    await fails(detail("secret", viewers.member), 404)
    await fails(detail("draft", viewers.member), 404, COURSE_NOT_FOUND)

    for (const name of ["public", "private", "gated", "secret"] as const) await ok(detail(name, viewers.entitled))
    await fails(detail("draft", viewers.entitled), 404)
  })

  it("shows staff everything, drafts included", async () => {
    for (const name of ["public", "private", "gated", "secret", "draft"] as const) {
      await ok(detail(name, viewers.moderator))
      await ok(detail(name, setup.owner))
    }
  })

  it("treats a non-member's token like an anonymous visit, and another community's course as not found", async () => {
    const stranger = await register(api, "Sara Stranger")
    await ok(detail("public", stranger))
    await fails(detail("private", stranger), 404)
    const other = await courseCommunity(api, "Outra")
    const foreign = await createCourse(typed, other)
    await publish(typed, other, foreign.id)
    await fails(clientOf().courses.detail({ path: { id: foreign.id } }), 404, COURSE_NOT_FOUND)
    await fails(clientOf(setup.owner).courses.detail({ path: { id: foreign.slug } }), 404, COURSE_NOT_FOUND)
    await fails(clientOf().courses.detail({ path: { id: "module" } }), 404)
  })
})

describe("GET /api/courses (access)", () => {
  it("lists to a member only published courses of spaces whose content they may read", async () => {
    expect(new Set(await listed(viewers.member))).toEqual(new Set([courses.public.id, courses.private.id]))
    expect(new Set(await listed(viewers.entitled))).toEqual(
      new Set([courses.public.id, courses.private.id, courses.gated.id, courses.secret.id])
    )
    const drafts = await ok(clientOf(viewers.member).courses.list({ urlParams: { status: "draft" } }))
    expect(drafts.data).toEqual([])
  })

  it("lists every course to staff, drafts included", async () => {
    const all = Object.values(courses).map((c) => c.id)
    expect(new Set(await listed(viewers.moderator))).toEqual(new Set(all))
  })

  it("requires a member (401 without a token, 403 for a non-member)", async () => {
    await fails(clientOf().courses.list({ urlParams: {} }), 401)
    const stranger = await register(api)
    // (raw: the contract of GET /api/courses declares no 403, so the typed client cannot read this answer)
    rawFails(
      await api.get("/api/courses", as(stranger, setup.community)),
      403,
      "Você não é membro desta comunidade."
    )
  })
})
