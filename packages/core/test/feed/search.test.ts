import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCourse, createLesson, createModule, publish } from "../support/courses"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type FeedCommunity, feedCommunity, insertContent, minutesAgo } from "./setup"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let f: FeedCommunity
const ids: Record<string, string> = {}

beforeAll(async () => {
  f = await feedCommunity(api, roda, "Busca")
  const c = f.community.id
  const author = f.member.profileId
  ids.public = await insertContent(roda, c, f.spaces.public.id, author, "Búsca avançada", minutesAgo(5))
  ids.middle = await insertContent(roda, c, f.spaces.public.id, author, "Guia de BUSCA rápida", minutesAgo(4))
  ids.private = await insertContent(roda, c, f.spaces.private.id, author, "Busca privada", minutesAgo(3))
  ids.gated = await insertContent(roda, c, f.spaces.gated.id, author, "Busca paga", minutesAgo(2))
  const courses = { ...f, space: f.spaces.courses }
  const course = await createCourse(api, courses, { title: "Curso de Busca" })
  const module = await createModule(api, f, course.id)
  ids.lesson = (await createLesson(api, f, module.id, { title: "Aula sobre buscas" })).id
  await publish(api, f, course.id)
  ids.course = course.id
  ids.draft = (await createCourse(api, courses, { title: "Busca em rascunho" })).id
  const other = await feedCommunity(api, roda, "Outra")
  ids.other = await insertContent(
    roda,
    other.community.id,
    other.spaces.public.id,
    other.member.profileId,
    "Busca alheia",
    minutesAgo(1)
  )
})

const search = async (q: string, viewer: keyof FeedCommunity["headers"]) =>
  expectOk(await api.get(`/api/search?q=${encodeURIComponent(q)}`, f.headers[viewer])) as Array<
    { type: string; id: string; title: string; score: number }
  >

describe("GET /api/search (Public)", () => {
  it("ignores case and accents, ranks title prefixes first", async () => {
    const reply = await api.get("/api/search?q=busca", f.headers.member)
    const results = expectOk(reply, 200, "Resultados da busca.")
    const found = results.map((r: { id: string }) => r.id)
    expect(found).toEqual(expect.arrayContaining([ids.public, ids.middle, ids.private, ids.course, ids.lesson]))
    // titles starting with the term come before titles that only contain it
    expect(found.indexOf(ids.public)).toBeLessThan(found.indexOf(ids.middle))
    expect(found.indexOf(ids.private)).toBeLessThan(found.indexOf(ids.course))
    expect(results.find((r: { id: string }) => r.id === ids.lesson)).toMatchObject({
      type: "lesson",
      courseId: ids.course
    })
    expect((await search("BÚSCÁ AVANÇADA", "anonymous")).map((r) => r.id)[0]).toBe(ids.public)
    expect((await search("avanc", "anonymous")).map((r) => r.id)).toEqual([ids.public])
  })

  it("finds spaces by title and tolerates a typo", async () => {
    expect((await search("publico", "anonymous")).map((r) => r.id)).toContain(f.spaces.public.id)
    expect((await search("avancada buska", "anonymous")).map((r) => r.id)).toContain(ids.public)
  })

  it("never returns what the caller may not read", async () => {
    const anonymous = (await search("busca", "anonymous")).map((r) => r.id)
    const member = (await search("busca", "member")).map((r) => r.id)
    const entitled = (await search("busca", "entitled")).map((r) => r.id)
    const staff = (await search("busca", "moderator")).map((r) => r.id)
    expect(anonymous).not.toContain(ids.private)
    expect(member).toContain(ids.private)
    for (const list of [anonymous, member]) expect(list).not.toContain(ids.gated)
    for (const list of [anonymous, member, entitled]) expect(list).not.toContain(ids.draft)
    expect(entitled).toContain(ids.gated)
    expect(staff).toEqual(expect.arrayContaining([ids.gated, ids.draft]))
    expect(staff).not.toContain(ids.other)
    expect((await search("secreto", "member")).map((r) => r.id)).not.toContain(f.spaces.secret.id)
    expect((await search("secreto", "entitled")).map((r) => r.id)).toContain(f.spaces.secret.id)
  })

  it("treats LIKE wildcards literally and refuses a missing, empty or long q with 400", async () => {
    expect(await search("%", "moderator")).toEqual([])
    expect(await search("_", "moderator")).toEqual([])
    expectInvalid(await api.get("/api/search", f.headers.member), "q", "query")
    expectInvalid(await api.get("/api/search?q=%20%20", f.headers.member), "q", "query")
    expectInvalid(await api.get(`/api/search?q=${"a".repeat(101)}`, f.headers.member), "q", "query")
    expectInvalid(await api.get("/api/search?q=a&limit=0", f.headers.member), "limit", "query")
    expectError(await api.get("/api/search?q=busca"), 400)
  })
})
