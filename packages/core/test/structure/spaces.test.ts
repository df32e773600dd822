import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ModulesAnswer } from "../../src/structure/Api"
import { structureMessages } from "../../src/structure/messages"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, expectPlainJson, unknownId } from "../support/envelope"
import { client, startRoda, type TestUser } from "../support/harness"
import { createSection, createSpace, SECTION_REFUSED, STAFF_REQUIRED } from "../support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: TestCommunity
let member: TestUser & { profileId: string }
let open: { id: string }
beforeAll(async () => {
  setup = await newCommunity(api, "Espaços")
  member = await setup.addMember("member")
  open = await createSection(api, setup, { title: "Aberta", visibility: "public" })
})

const owner = () => as(setup.owner, setup.community)

describe("POST /api/spaces", () => {
  it("creates a space at the end of its section", async () => {
    const section = await createSection(api, setup)
    const reply = await api.post(
      "/api/spaces",
      { sectionId: section.id, title: "Cursos", module: "courses", visibility: "private" },
      owner()
    )
    const data = expectCreated(reply, structureMessages.spaceCreated.pt)
    expect(data).toMatchObject({
      communityId: setup.community.id,
      sectionId: section.id,
      title: "Cursos",
      module: "courses",
      visibility: "private",
      access: { subscriptionGroupIds: [], productIds: [] },
      postingPolicy: "members",
      position: 0,
      canReadContent: true
    })
    const second = await createSpace(api, setup, section.id, { module: "feed", postingPolicy: "staff" })
    expect(second).toMatchObject({ position: 1, visibility: "public", postingPolicy: "staff" })
  })

  it("takes the section's visibility by default", async () => {
    const secret = await createSection(api, setup, { visibility: "secret" })
    expect((await createSpace(api, setup, secret.id)).visibility).toBe("secret")
  })

  it("refuses a missing, unknown or foreign section with the spec message", async () => {
    const other = await newCommunity(api)
    const foreign = await createSection(api, other)
    for (const sectionId of [undefined, unknownId(), foreign.id, "not-a-uuid"]) {
      const reply = await api.post("/api/spaces", { sectionId, title: "X", module: "feed" }, owner())
      const body = expectInvalid(reply, "sectionId")
      expect(body.message).toBe(SECTION_REFUSED)
    }
    const english = await api.post("/api/spaces", { sectionId: foreign.id, title: "X", module: "feed" }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expectError(english, 400, "Section not found or does not belong to this community.")
  })

  it("refuses a space more open than its section", async () => {
    const section = await createSection(api, setup, { title: "Clube", visibility: "private" })
    const reply = await api.post(
      "/api/spaces",
      { sectionId: section.id, title: "X", module: "feed", visibility: "public" },
      owner()
    )
    const body = expectInvalid(reply, "visibility")
    expect(body.message).toBe("This space cannot be more open than the section \"Clube\" (private).")
    const secret = await createSection(api, setup, { title: "Cofre", visibility: "secret" })
    for (const visibility of ["public", "private"]) {
      const refused = await api.post(
        "/api/spaces",
        { sectionId: secret.id, title: "X", module: "feed", visibility },
        owner()
      )
      expectError(refused, 400, "This space cannot be more open than the section \"Cofre\" (secret).")
    }
    expectCreated(
      await api.post(
        "/api/spaces",
        { sectionId: section.id, title: "X", module: "feed", visibility: "secret" },
        owner()
      )
    )
  })

  it("refuses every access grant while no plan or product exists (param access)", async () => {
    const plan = unknownId()
    const reply = await api.post(
      "/api/spaces",
      { sectionId: open.id, title: "Pago", module: "courses", access: { subscriptionGroupIds: [plan] } },
      owner()
    )
    const body = expectInvalid(reply, "access")
    expect(body.message).toBe(`The access grant ${plan} does not exist in this community.`)
    const product = await api.post(
      "/api/spaces",
      { sectionId: open.id, title: "Pago", module: "courses", access: { productIds: ["produto-1"] } },
      owner()
    )
    expectError(product, 400, "The access grant produto-1 does not exist in this community.")
    const empty = await api.post(
      "/api/spaces",
      { sectionId: open.id, title: "Livre", module: "courses", access: { subscriptionGroupIds: [], productIds: [] } },
      owner()
    )
    expectCreated(empty)
  })

  it("accepts only modules of the catalogue", async () => {
    expectInvalid(await api.post("/api/spaces", { sectionId: open.id, title: "X", module: "chat" }, owner()), "module")
    expectInvalid(await api.post("/api/spaces", { sectionId: open.id, title: "X" }, owner()), "module")
    expectInvalid(await api.post("/api/spaces", { sectionId: open.id, module: "feed" }, owner()), "title")
  })

  it("refuses a member with 403", async () => {
    const reply = await api.post(
      "/api/spaces",
      { sectionId: open.id, title: "X", module: "feed" },
      as(member, setup.community)
    )
    expectError(reply, 403, STAFF_REQUIRED("member"))
  })
})

describe("GET /api/spaces/modules", () => {
  it("lists the catalogue by category, in the caller's language, without a token", async () => {
    const reply = await api.get("/api/spaces/modules", { community: setup.community.id })
    const data = expectOk(reply, 200)
    expectPlainJson(ModulesAnswer, reply.body)
    const modules = data.flatMap((c: { modules: Array<{ id: string }> }) => c.modules.map((m) => m.id))
    expect(modules).toEqual(expect.arrayContaining(["courses", "feed", "events", "call4papers", "certificates"]))
    expect(data.find((c: { id: string }) => c.id === "learning").name).toBe("Aprendizado")
    const inEnglish = await api.get("/api/spaces/modules", {
      community: setup.community.id,
      headers: { "accept-language": "en" }
    })
    const english = expectOk(inEnglish)
    expectPlainJson(ModulesAnswer, inEnglish.body)
    expect(english.find((c: { id: string }) => c.id === "learning").name).toBe("Learning")
    expect(inEnglish.body.message).not.toBe(reply.body.message)
    // Answered again from the same made answer: still the caller's language.
    expect(expectOk(await api.get("/api/spaces/modules", { community: setup.community.id }))).toEqual(data)
  })
})

describe("GET /api/spaces and /api/spaces/{id}", () => {
  it("lists in navigation order, filters by section, paginates", async () => {
    const community = await newCommunity(api)
    const call = as(community.owner, community.community)
    const first = await createSection(api, community)
    const second = await createSection(api, community)
    const inSecond = [
      (await createSpace(api, community, second.id)).id,
      (await createSpace(api, community, second.id)).id
    ]
    const inFirst = [(await createSpace(api, community, first.id)).id, (await createSpace(api, community, first.id)).id]
    const all = [...inFirst, ...inSecond]

    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(`/api/spaces?limit=3${cursor ? `&cursor=${cursor}` : ""}`, call)
      expectOk(reply, 200, structureMessages.spaces.pt)
      seen.push(...reply.body.data.map((s: { id: string }) => s.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual(all)

    const filtered = expectOk(await api.get(`/api/spaces?sectionId=${second.id}`, call))
    expect(filtered.map((s: { id: string }) => s.id)).toEqual(inSecond)
    expect(expectOk(await api.get(`/api/spaces?sectionId=${unknownId()}`, call))).toEqual([])
    expectInvalid(await api.get("/api/spaces?sectionId=nope", call), "sectionId", "query")
    expectInvalid(await api.get("/api/spaces?cursor=WzEsMl0", call), "cursor", "query")
  })

  it("shows a space; 404 for another community's, 400 for a malformed id", async () => {
    const space = await createSpace(api, setup, open.id, { title: "Detalhe" })
    expect(expectOk(await api.get(`/api/spaces/${space.id}`, owner()), 200, structureMessages.space.pt)).toMatchObject({
      id: space.id,
      title: "Detalhe"
    })
    const other = await newCommunity(api)
    const foreign = await createSpace(api, other, (await createSection(api, other)).id)
    expectError(await api.get(`/api/spaces/${foreign.id}`, owner()), 404, structureMessages.spaceUnknown.pt)
    expectInvalid(await api.get("/api/spaces/123", owner()), "id", "params")
  })
})

describe("PUT /api/spaces/{id}", () => {
  it("updates title, module, visibility and posting policy", async () => {
    const space = await createSpace(api, setup, open.id)
    const data = expectOk(
      await api.put(
        `/api/spaces/${space.id}`,
        { title: "Novo", module: "events", visibility: "private", postingPolicy: "staff" },
        owner()
      ),
      200,
      structureMessages.spaceUpdated.pt
    )
    expect(data).toMatchObject({ title: "Novo", module: "events", visibility: "private", postingPolicy: "staff" })
  })

  it("keeps the space within its section and checks access grants", async () => {
    const section = await createSection(api, setup, { title: "Fechada", visibility: "private" })
    const space = await createSpace(api, setup, section.id)
    const reply = await api.put(`/api/spaces/${space.id}`, { visibility: "public" }, owner())
    expectError(reply, 400, "This space cannot be more open than the section \"Fechada\" (private).")
    const grant = unknownId()
    const refused = await api.put(`/api/spaces/${space.id}`, { access: { productIds: [grant] } }, owner())
    expect(expectInvalid(refused, "access").message).toBe(`The access grant ${grant} does not exist in this community.`)
    expectOk(await api.put(`/api/spaces/${space.id}`, { access: { productIds: [] } }, owner()))
  })

  it("moves a space to the end of another section, within its visibility", async () => {
    const from = await createSection(api, setup)
    const to = await createSection(api, setup, { title: "Destino", visibility: "private" })
    await createSpace(api, setup, to.id, { visibility: "private" })
    const space = await createSpace(api, setup, from.id, { visibility: "public" })
    expectError(
      await api.put(`/api/spaces/${space.id}`, { sectionId: to.id }, owner()),
      400,
      "This space cannot be more open than the section \"Destino\" (private)."
    )
    const moved = expectOk(
      await api.put(`/api/spaces/${space.id}`, { sectionId: to.id, visibility: "secret" }, owner())
    )
    expect(moved).toMatchObject({ sectionId: to.id, position: 1, visibility: "secret" })
    const other = await newCommunity(api)
    const foreign = await createSection(api, other)
    expectError(await api.put(`/api/spaces/${space.id}`, { sectionId: foreign.id }, owner()), 400, SECTION_REFUSED)
  })

  it("refuses a member (403) and another community's space (404)", async () => {
    const space = await createSpace(api, setup, open.id)
    expectError(await api.put(`/api/spaces/${space.id}`, { title: "X" }, as(member, setup.community)), 403)
    const other = await newCommunity(api)
    const foreign = await createSpace(api, other, (await createSection(api, other)).id)
    expectError(await api.put(`/api/spaces/${foreign.id}`, { title: "X" }, owner()), 404)
  })
})

describe("DELETE /api/spaces/{id}", () => {
  it("removes a space; member 403; another community's 404", async () => {
    const space = await createSpace(api, setup, open.id)
    expectError(await api.del(`/api/spaces/${space.id}`, as(member, setup.community)), 403, STAFF_REQUIRED("member"))
    expectOk(await api.del(`/api/spaces/${space.id}`, owner()), 200, structureMessages.spaceRemoved.pt)
    expectError(await api.get(`/api/spaces/${space.id}`, owner()), 404)
    expectError(await api.del(`/api/spaces/${space.id}`, owner()), 404)
  })
})

describe("DELETE /api/spaces/{id} with content", () => {
  it("refuses with 409 while a course belongs to the space", async () => {
    const space = await createSpace(api, setup, open.id, { module: "courses" })
    const course = await api.post("/api/courses", { spaceId: space.id, title: "Curso", level: "beginner" }, owner())
    expectCreated(course)
    expectError(await api.del(`/api/spaces/${space.id}`, owner()), 409, structureMessages.spaceHasContent.pt)
    expectOk(await api.get(`/api/spaces/${space.id}`, owner()))
  })
})

describe("POST /api/spaces/reorder", () => {
  it("reorders the spaces of one section", async () => {
    const section = await createSection(api, setup)
    const ids = [
      (await createSpace(api, setup, section.id)).id,
      (await createSpace(api, setup, section.id)).id,
      (await createSpace(api, setup, section.id)).id
    ]
    const order = [ids[1]!, ids[2]!, ids[0]!]
    const data = expectOk(
      await api.post("/api/spaces/reorder", { sectionId: section.id, ids: order }, owner()),
      200,
      structureMessages.spacesReordered.pt
    )
    expect(data.map((s: { id: string }) => s.id)).toEqual(order)
    const listed = expectOk(await api.get(`/api/spaces?sectionId=${section.id}`, owner()))
    expect(listed.map((s: { id: string }) => s.id)).toEqual(order)
  })

  it("refuses lists that are not exactly the section's spaces, and unknown sections", async () => {
    const section = await createSection(api, setup)
    const a = (await createSpace(api, setup, section.id)).id
    const b = (await createSpace(api, setup, section.id)).id
    const elsewhere = (await createSpace(api, setup, open.id)).id
    for (const ids of [[a], [a, a, b], [a, b, elsewhere], []]) {
      const body = expectInvalid(await api.post("/api/spaces/reorder", { sectionId: section.id, ids }, owner()), "ids")
      expect(body.message).toBe(structureMessages.spacesReorderMismatch.pt)
    }
    expectError(
      await api.post("/api/spaces/reorder", { sectionId: unknownId(), ids: [a, b] }, owner()),
      400,
      SECTION_REFUSED
    )
    expectError(await api.post("/api/spaces/reorder", { ids: [a, b] }, owner()), 400, SECTION_REFUSED)
    expectError(
      await api.post("/api/spaces/reorder", { sectionId: section.id, ids: [b, a] }, as(member, setup.community)),
      403
    )
  })
})

describe("route order", () => {
  it("keeps /spaces/modules and /spaces/reorder apart from /spaces/{id}", async () => {
    expectOk(await api.get("/api/spaces/modules", owner()))
    expectInvalid(await api.get("/api/spaces/reorder", owner()), "id", "params")
    expectError(await api.post("/api/spaces/modules", {}, owner()), 404)
  })
})

describe("OpenAPI", () => {
  it("documents every route of the spec's sections and spaces table", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap((
      [path, operations]
    ) => Object.keys(operations).map((method) => `${method} ${path}`))
    expect(documented).toEqual(expect.arrayContaining([
      "get /api/sections",
      "post /api/sections",
      "get /api/sections/{id}",
      "put /api/sections/{id}",
      "delete /api/sections/{id}",
      "post /api/sections/reorder",
      "get /api/spaces",
      "post /api/spaces",
      "get /api/spaces/modules",
      "get /api/spaces/{id}",
      "put /api/spaces/{id}",
      "delete /api/spaces/{id}",
      "post /api/spaces/reorder"
    ]))
    expect(doc.paths["/api/sections/{id}"].delete.description).toContain("409")
  })
})
