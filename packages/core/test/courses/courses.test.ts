import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { contract, fails, invalid, ok, okAt, rawFails } from "../support/contract"
import { uniqueTag, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace, STAFF_REQUIRED } from "../support/structure"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  INVALID_COURSE_ID,
  ownerOf,
  publish,
  publishedCourse,
  SPACE_ID_REQUIRED,
  SPACE_REFUSED
} from "./support"

// Contract calls through `typed`; bodies and ids the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
let other: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
  other = await courseCommunity(api, "Outra")
})
const owner = () => ownerOf(typed, setup)
const ownerInEnglish = () =>
  typed.clientOf({ token: setup.owner.token, communityId: setup.community.id, language: "en" })

describe("POST /api/courses", () => {
  it("creates a draft course with a slug from the title, accents removed", async () => {
    const tag = uniqueTag()
    const reply = await ok(
      owner().courses.create({
        payload: {
          communityId: setup.community.id,
          spaceId: setup.space.id,
          title: `Introdução à Programação ${tag}`,
          description: "Do zero",
          level: "intermediate"
        }
      })
    )
    expect(reply.message).toBe("Curso criado com sucesso.")
    expect(reply.data).toMatchObject({
      communityId: setup.community.id,
      spaceId: setup.space.id,
      title: `Introdução à Programação ${tag}`,
      slug: `introducao-a-programacao-${tag}`,
      description: "Do zero",
      level: "intermediate",
      status: "draft",
      publishedAt: null
    })
  })

  it("defaults the level, suffixes a taken generated slug and refuses a taken explicit one (409)", async () => {
    const title = `Curso Repetido ${uniqueTag()}`
    const first = await createCourse(typed, setup, { title })
    const second = await createCourse(typed, setup, { title })
    expect(first.level).toBe("beginner")
    expect(second.slug).toBe(`${first.slug}-2`)
    const taken = await fails(
      owner().courses.create({ payload: { spaceId: setup.space.id, title: "X", slug: first.slug } }),
      409
    )
    expect(taken.errors?.[0]?.param).toBe("slug")
    // The same slug is free in another community.
    await createCourse(typed, other, { title: "Y", slug: first.slug })
  })

  it("requires spaceId: 400 ID do espaço é obrigatório.", async () => {
    for (
      const payload of [{ title: "Sem espaço" }, { title: "Sem espaço", spaceId: null }, { title: "X", spaceId: " " }]
    ) {
      const error = await fails(owner().courses.create({ payload }), 400, SPACE_ID_REQUIRED)
      expect(error.errors?.[0]).toMatchObject({ param: "spaceId", msg: { pt: SPACE_ID_REQUIRED }, location: "body" })
    }
    await fails(ownerInEnglish().courses.create({ payload: { title: "X" } }), 400, "Space ID is required.")
  })

  it("refuses an unknown, malformed or other community's space: 400", async () => {
    for (const spaceId of [unknownId(), other.space.id, "not-a-uuid"]) {
      const error = await fails(owner().courses.create({ payload: { spaceId, title: "X" } }), 400, SPACE_REFUSED)
      expect(error.errors?.[0]?.param).toBe("spaceId")
    }
  })

  it("refuses a space whose module is not courses (400)", async () => {
    const feed = await createSpace(api, setup, setup.section.id, { module: "feed", title: "Feed" })
    const error = await invalid(owner().courses.create({ payload: { spaceId: feed.id, title: "X" } }), "spaceId")
    expect(error.text.pt).toBe("Este espaço não é um espaço de cursos (module courses).")
  })

  it("requires communityId, when sent, to equal the header", async () => {
    await invalid(
      owner().courses.create({
        payload: { communityId: other.community.id, spaceId: setup.space.id, title: "X" }
      }),
      "communityId"
    )
  })

  it("is only for owner, admin and moderator (403)", async () => {
    const moderator = await setup.addMember("moderator")
    await okAt(
      typed.as(moderator, setup.community).courses.create({
        payload: { spaceId: setup.space.id, title: "Mod" },
        withResponse: true
      }),
      201
    )
    for (const role of ["member", "finance"]) {
      const user = await setup.addMember(role)
      await fails(
        typed.as(user, setup.community).courses.create({ payload: { spaceId: setup.space.id, title: "X" } }),
        403,
        STAFF_REQUIRED(role)
      )
    }
  })

  it("answers 400, never 5xx, for malformed bodies (raw: the contract's types refuse them)", async () => {
    for (
      const body of [
        { spaceId: setup.space.id, title: "" },
        { spaceId: setup.space.id, title: "X", level: "expert" },
        { spaceId: setup.space.id, title: "X", status: "published" },
        { spaceId: setup.space.id, title: "X", slug: "Not A Slug" },
        { spaceId: 42, title: "X" },
        [],
        "text"
      ]
    ) {
      rawFails(await api.post("/api/courses", body, as(setup.owner, setup.community)), 400)
    }
  })
})

describe("PUT /api/courses/:id", () => {
  it("changes title, description, level, slug and cover", async () => {
    const course = await createCourse(typed, setup)
    const slug = `novo-${uniqueTag()}`
    const reply = await ok(
      owner().courses.update({
        path: { id: course.id },
        payload: {
          title: "Novo título",
          description: null,
          level: "advanced",
          slug,
          coverUrl: "https://cdn.roda.test/capa.png"
        }
      })
    )
    expect(reply.message).toBe("Curso atualizado com sucesso.")
    expect(reply.data).toMatchObject({
      title: "Novo título",
      description: null,
      level: "advanced",
      slug,
      status: "draft"
    })
    const takenSlug = (await createCourse(typed, setup)).slug
    await fails(owner().courses.update({ path: { id: course.id }, payload: { slug: takenSlug } }), 409)
  })

  it("publishes a draft (spec §3) and unpublishes only while nobody is enrolled", async () => {
    const course = await createCourse(typed, setup)
    const published = await publish(typed, setup, course.id)
    expect(published.status).toBe("published")
    expect(Date.parse(published.publishedAt ?? "")).not.toBeNaN()
    const update = (status: "draft" | "published") =>
      owner().courses.update({ path: { id: course.id }, payload: { status } })
    expect((await ok(update("published"))).data.status).toBe("published")

    expect((await ok(update("draft"))).data).toMatchObject({ status: "draft", publishedAt: null })
    await publish(typed, setup, course.id)
    const member = await setup.addMember("member")
    await okAt(
      typed.as(member, setup.community).courses.enroll({ path: { courseId: course.id }, withResponse: true }),
      201
    )
    const refused = await fails(
      update("draft"),
      409,
      "Não é possível mudar o status do curso de published para draft. Movimentos permitidos: nenhum."
    )
    expect(refused.errors?.[0]).toMatchObject({ param: "status" })
    await fails(
      ownerInEnglish().courses.update({ path: { id: course.id }, payload: { status: "draft" } }),
      409,
      "The course status cannot change from published to draft. Allowed moves: none."
    )
  })

  it("is only for staff, and another community's course is not found", async () => {
    const course = await createCourse(typed, setup)
    const member = await setup.addMember("member")
    await fails(
      typed.as(member, setup.community).courses.update({ path: { id: course.id }, payload: { title: "X" } }),
      403
    )
    const foreign = await createCourse(typed, other)
    await fails(owner().courses.update({ path: { id: foreign.id }, payload: { title: "X" } }), 404, COURSE_NOT_FOUND)
    await fails(owner().courses.update({ path: { id: unknownId() }, payload: { title: "X" } }), 404, COURSE_NOT_FOUND)
  })

  it("answers a malformed course id with 400 Valid course ID is required, in every language (raw)", async () => {
    for (const headers of [{}, { "accept-language": "pt-BR" }, { "accept-language": "en" }]) {
      const options = { ...as(setup.owner, setup.community), headers }
      for (
        const reply of [
          await api.put("/api/courses/123", { title: "X" }, options),
          await api.del("/api/courses/not-a-uuid", options),
          await api.post("/api/courses/abc/enroll", undefined, options),
          await api.post(`/api/courses/abc/lesson/${unknownId()}/progress`, { percent: 1 }, options),
          await api.post("/api/courses/module", { courseId: "abc", title: "M" }, options)
        ]
      ) {
        const body = rawFails(reply, 400, INVALID_COURSE_ID)
        expect(body.errors?.[0]?.msg).toBe(INVALID_COURSE_ID)
      }
    }
    const params = rawFails(await api.put("/api/courses/123", { title: "X" }, as(setup.owner, setup.community)), 400)
    expect(params.errors?.[0]).toMatchObject({ param: "id", location: "params" })
  })
})

describe("DELETE /api/courses/:id", () => {
  it("removes the course with its modules and lessons, keeping learners' progress", async () => {
    const course = await publishedCourse(typed, setup, { modules: 2, lessons: 2 })
    const learner = typed.as(await setup.addMember("member"), setup.community)
    await ok(learner.courses.enroll({ path: { courseId: course.id } }))
    const lessonId = course.modules[0]!.lessons[0]!.id
    await ok(learner.courses.progress({ path: { courseId: course.id, lessonId }, payload: { completed: true } }))

    await fails(learner.courses.remove({ path: { id: course.id } }), 403)
    const removed = await ok(owner().courses.remove({ path: { id: course.id } }))
    expect(removed).toMatchObject({ message: "Curso removido com sucesso.", data: null })
    await fails(owner().courses.detail({ path: { id: course.id } }), 404, COURSE_NOT_FOUND)
    await fails(owner().courses.remove({ path: { id: course.id } }), 404, COURSE_NOT_FOUND)
    const left = await query(
      roda,
      (sql) =>
        sql`SELECT (SELECT count(*)::int FROM course_modules WHERE course_id = ${course.id}) AS modules,
        (SELECT count(*)::int FROM lessons WHERE course_id = ${course.id}) AS lessons,
        (SELECT count(*)::int FROM lesson_progress WHERE course_id = ${course.id}) AS progress`
    )
    expect(left[0]).toEqual({ modules: 0, lessons: 0, progress: 1 })
  })

  it("does not reach another community's course", async () => {
    const foreign = await createCourse(typed, other)
    await fails(owner().courses.remove({ path: { id: foreign.id } }), 404)
    await ok(ownerOf(typed, other).courses.detail({ path: { id: foreign.id } }))
  })
})

describe("GET /api/courses", () => {
  it("pages with a keyset cursor and filters by space, status and level", async () => {
    const own = await newCommunity(api, "Lista")
    const section = await createSection(api, own, { visibility: "public" })
    const spaceA = await createSpace(api, own, section.id, { visibility: "public" })
    const spaceB = await createSpace(api, own, section.id, { visibility: "public" })
    const ownSetup = { ...own, section, space: spaceA }
    const created: Array<string> = []
    for (let i = 0; i < 5; i++) {
      created.push((await createCourse(typed, ownSetup, { title: `A${i}`, level: "beginner" })).id)
    }
    const b = await createCourse(typed, { ...ownSetup, space: spaceB }, { title: "B", level: "advanced" })
    await publish(typed, own, created[0]!)
    const courses = ownerOf(typed, own).courses

    const pageAfter = (cursor: string | null) =>
      ok(courses.list({ urlParams: cursor === null ? { limit: 2 } : { limit: 2, cursor } }))
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const page = await pageAfter(cursor)
      expect(page.message).toBe("Cursos encontrados.")
      expect(page.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.data.map((course) => course.id))
      cursor = page.pagination.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual([...created, b.id])

    const ids = async (urlParams: Parameters<typeof courses.list>[0]["urlParams"]) =>
      (await ok(courses.list({ urlParams }))).data.map((course) => course.id)
    expect(await ids({ spaceId: spaceB.id })).toEqual([b.id])
    expect(await ids({ level: "advanced" })).toEqual([b.id])
    expect(await ids({ status: "published" })).toEqual([created[0]])
    expect(await ids({ status: "draft", spaceId: spaceA.id })).toEqual(created.slice(1))
  })

  it("answers malformed filters and cursors with 400", async () => {
    // (raw: the contract's types refuse these)
    for (const qs of ["limit=0", "limit=abc", "status=archived", "level=expert", "spaceId=abc"]) {
      rawFails(await api.get(`/api/courses?${qs}`, as(setup.owner, setup.community)), 400)
    }
    await fails(owner().courses.list({ urlParams: { cursor: "zzz" } }), 400)
  })
})
