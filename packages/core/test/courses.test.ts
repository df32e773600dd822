import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "./support/community"
import {
  COURSE_NOT_FOUND,
  type CourseCommunity,
  courseCommunity,
  createCourse,
  INVALID_COURSE_ID,
  publish,
  publishedCourse,
  SPACE_ID_REQUIRED,
  SPACE_REFUSED
} from "./support/courses"
import { expectCreated, expectError, expectInvalid, expectOk, uniqueTag, unknownId } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { query } from "./support/sql"
import { createSection, createSpace, STAFF_REQUIRED } from "./support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
let other: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api)
  other = await courseCommunity(api, "Outra")
})
const owner = () => as(setup.owner, setup.community)

describe("POST /api/courses", () => {
  it("creates a draft course with a slug from the title, accents removed", async () => {
    const tag = uniqueTag()
    const reply = await api.post("/api/courses", {
      communityId: setup.community.id,
      spaceId: setup.space.id,
      title: `Introdução à Programação ${tag}`,
      description: "Do zero",
      level: "intermediate"
    }, owner())
    const data = expectCreated(reply, "Curso criado com sucesso.")
    expect(data).toMatchObject({
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
    const first = await createCourse(api, setup, { title })
    const second = await createCourse(api, setup, { title })
    expect(first.level).toBe("beginner")
    expect(second.slug).toBe(`${first.slug}-2`)
    const taken = await api.post("/api/courses", { spaceId: setup.space.id, title: "X", slug: first.slug }, owner())
    expect(expectError(taken, 409).errors[0].param).toBe("slug")
    // The same slug is free in another community.
    await createCourse(api, other, { title: "Y", slug: first.slug })
  })

  it("requires spaceId: 400 ID do espaço é obrigatório.", async () => {
    for (
      const body of [{ title: "Sem espaço" }, { title: "Sem espaço", spaceId: null }, { title: "X", spaceId: " " }]
    ) {
      const error = expectError(await api.post("/api/courses", body, owner()), 400, SPACE_ID_REQUIRED)
      expect(error.errors[0]).toMatchObject({ param: "spaceId", msg: SPACE_ID_REQUIRED, location: "body" })
    }
    const english = await api.post("/api/courses", { title: "X" }, { ...owner(), headers: { "accept-language": "en" } })
    expectError(english, 400, "Space ID is required.")
  })

  it("refuses an unknown, malformed or other community's space: 400", async () => {
    for (const spaceId of [unknownId(), other.space.id, "not-a-uuid"]) {
      const error = expectError(await api.post("/api/courses", { spaceId, title: "X" }, owner()), 400, SPACE_REFUSED)
      expect(error.errors[0].param).toBe("spaceId")
    }
  })

  it("refuses a space whose module is not courses (400)", async () => {
    const feed = await createSpace(api, setup, setup.section.id, { module: "feed", title: "Feed" })
    const reply = await api.post("/api/courses", { spaceId: feed.id, title: "X" }, owner())
    expect(expectInvalid(reply, "spaceId").message).toBe("Este espaço não é um espaço de cursos (module courses).")
  })

  it("requires communityId, when sent, to equal the header", async () => {
    const reply = await api.post("/api/courses", {
      communityId: other.community.id,
      spaceId: setup.space.id,
      title: "X"
    }, owner())
    expectInvalid(reply, "communityId")
  })

  it("is only for owner, admin and moderator (403)", async () => {
    const moderator = await setup.addMember("moderator")
    expectCreated(
      await api.post("/api/courses", { spaceId: setup.space.id, title: "Mod" }, as(moderator, setup.community))
    )
    for (const role of ["member", "finance"]) {
      const user = await setup.addMember(role)
      const reply = await api.post("/api/courses", { spaceId: setup.space.id, title: "X" }, as(user, setup.community))
      expectError(reply, 403, STAFF_REQUIRED(role))
    }
  })

  it("answers 400, never 5xx, for malformed bodies", async () => {
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
      expectError(await api.post("/api/courses", body, owner()), 400)
    }
  })
})

describe("PUT /api/courses/:id", () => {
  it("changes title, description, level, slug and cover", async () => {
    const course = await createCourse(api, setup)
    const slug = `novo-${uniqueTag()}`
    const data = expectOk(
      await api.put(`/api/courses/${course.id}`, {
        title: "Novo título",
        description: null,
        level: "advanced",
        slug,
        coverUrl: "https://cdn.roda.test/capa.png"
      }, owner()),
      200,
      "Curso atualizado com sucesso."
    )
    expect(data).toMatchObject({ title: "Novo título", description: null, level: "advanced", slug, status: "draft" })
    const taken = await api.put(`/api/courses/${course.id}`, { slug: (await createCourse(api, setup)).slug }, owner())
    expectError(taken, 409)
  })

  it("publishes a draft (spec §3) and unpublishes only while nobody is enrolled", async () => {
    const course = await createCourse(api, setup)
    const published = await publish(api, setup, course.id)
    expect(published.status).toBe("published")
    expect(Date.parse(published.publishedAt)).not.toBeNaN()
    expect(expectOk(await api.put(`/api/courses/${course.id}`, { status: "published" }, owner())).status).toBe(
      "published"
    )

    expect(expectOk(await api.put(`/api/courses/${course.id}`, { status: "draft" }, owner())))
      .toMatchObject({ status: "draft", publishedAt: null })
    await publish(api, setup, course.id)
    const member = await setup.addMember("member")
    expectCreated(await api.post(`/api/courses/${course.id}/enroll`, undefined, as(member, setup.community)))
    const refused = expectError(
      await api.put(`/api/courses/${course.id}`, { status: "draft" }, owner()),
      409,
      "Não é possível mudar o status do curso de published para draft. Movimentos permitidos: nenhum."
    )
    expect(refused.errors[0]).toMatchObject({ param: "status" })
    const english = await api.put(`/api/courses/${course.id}`, { status: "draft" }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expectError(english, 409, "The course status cannot change from published to draft. Allowed moves: none.")
  })

  it("is only for staff, and another community's course is not found", async () => {
    const course = await createCourse(api, setup)
    const member = await setup.addMember("member")
    expectError(await api.put(`/api/courses/${course.id}`, { title: "X" }, as(member, setup.community)), 403)
    const foreign = await createCourse(api, other)
    expectError(await api.put(`/api/courses/${foreign.id}`, { title: "X" }, owner()), 404, COURSE_NOT_FOUND)
    expectError(await api.put(`/api/courses/${unknownId()}`, { title: "X" }, owner()), 404, COURSE_NOT_FOUND)
  })

  it("answers a malformed course id with 400 Valid course ID is required, in every language", async () => {
    for (const headers of [{}, { "accept-language": "pt-BR" }, { "accept-language": "en" }]) {
      const options = { ...owner(), headers }
      for (
        const reply of [
          await api.put("/api/courses/123", { title: "X" }, options),
          await api.del("/api/courses/not-a-uuid", options),
          await api.post("/api/courses/abc/enroll", undefined, options),
          await api.post(`/api/courses/abc/lesson/${unknownId()}/progress`, { percent: 1 }, options),
          await api.post("/api/courses/module", { courseId: "abc", title: "M" }, options)
        ]
      ) {
        const body = expectError(reply, 400, INVALID_COURSE_ID)
        expect(body.errors[0].msg).toBe(INVALID_COURSE_ID)
      }
    }
    const params = expectError(await api.put("/api/courses/123", { title: "X" }, owner()), 400)
    expect(params.errors[0]).toMatchObject({ param: "id", location: "params" })
  })
})

describe("DELETE /api/courses/:id", () => {
  it("removes the course with its modules and lessons, keeping learners' progress", async () => {
    const course = await publishedCourse(api, setup, { modules: 2, lessons: 2 })
    const member = await setup.addMember("member")
    const options = as(member, setup.community)
    await api.post(`/api/courses/${course.id}/enroll`, undefined, options)
    const lessonId = course.modules[0]!.lessons[0]!.id
    expectOk(await api.post(`/api/courses/${course.id}/lesson/${lessonId}/progress`, { completed: true }, options))

    expectError(await api.del(`/api/courses/${course.id}`, options), 403)
    expectOk(await api.del(`/api/courses/${course.id}`, owner()), 200, "Curso removido com sucesso.")
    expectError(await api.get(`/api/courses/${course.id}`, owner()), 404, COURSE_NOT_FOUND)
    expectError(await api.del(`/api/courses/${course.id}`, owner()), 404, COURSE_NOT_FOUND)
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
    const foreign = await createCourse(api, other)
    expectError(await api.del(`/api/courses/${foreign.id}`, owner()), 404)
    expectOk(await api.get(`/api/courses/${foreign.id}`, as(other.owner, other.community)))
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
      created.push((await createCourse(api, ownSetup, { title: `A${i}`, level: "beginner" })).id)
    }
    const b = await createCourse(api, { ...ownSetup, space: spaceB }, { title: "B", level: "advanced" })
    await publish(api, own, created[0]!)
    const options = as(own.owner, own.community)

    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(`/api/courses?limit=2${cursor ? `&cursor=${cursor}` : ""}`, options)
      const data = expectOk(reply, 200, "Cursos encontrados.")
      expect(data.length).toBeLessThanOrEqual(2)
      seen.push(...data.map((c: { id: string }) => c.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual([...created, b.id])

    const ids = async (qs: string) => expectOk(await api.get(`/api/courses?${qs}`, options)).map((c: any) => c.id)
    expect(await ids(`spaceId=${spaceB.id}`)).toEqual([b.id])
    expect(await ids("level=advanced")).toEqual([b.id])
    expect(await ids("status=published")).toEqual([created[0]])
    expect(await ids(`status=draft&spaceId=${spaceA.id}`)).toEqual(created.slice(1))
  })

  it("answers malformed filters and cursors with 400", async () => {
    for (const qs of ["limit=0", "limit=abc", "status=archived", "level=expert", "spaceId=abc", "cursor=zzz"]) {
      expectError(await api.get(`/api/courses?${qs}`, owner()), 400)
    }
  })
})
