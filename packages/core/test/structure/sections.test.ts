import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Messages } from "../../src/domain/Messages"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda, type TestUser } from "../support/harness"
import { createSection, createSpace, STAFF_REQUIRED } from "../support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: TestCommunity
let member: TestUser & { profileId: string }
let moderator: TestUser & { profileId: string }
beforeAll(async () => {
  setup = await newCommunity(api, "Estrutura")
  member = await setup.addMember("member")
  moderator = await setup.addMember("moderator")
})

const owner = () => as(setup.owner, setup.community)

describe("POST /api/sections", () => {
  it("creates a section at the end, public by default", async () => {
    const community = await newCommunity(api)
    const first = expectCreated(
      await api.post("/api/sections", { title: "  Boas-vindas  " }, as(community.owner, community.community)),
      Messages.sectionCreated.pt
    )
    expect(first).toMatchObject({
      communityId: community.community.id,
      title: "Boas-vindas",
      visibility: "public",
      position: 0
    })
    const second = expectCreated(
      await api.post(
        "/api/sections",
        { title: "Membros", visibility: "private" },
        as(community.owner, community.community)
      )
    )
    expect(second).toMatchObject({ visibility: "private", position: 1 })
  })

  it("lets a moderator create, and refuses a member with 403", async () => {
    expectCreated(await api.post("/api/sections", { title: "Mod" }, as(moderator, setup.community)))
    const reply = await api.post("/api/sections", { title: "Nope" }, as(member, setup.community))
    expectError(reply, 403, STAFF_REQUIRED("member"))
  })

  it("requires a token", async () => {
    expectError(await api.post("/api/sections", { title: "X" }, { community: setup.community.id }), 401)
  })

  it("answers 400 for a missing title or an unknown visibility", async () => {
    expectInvalid(await api.post("/api/sections", {}, owner()), "title")
    expectInvalid(await api.post("/api/sections", { title: "X", visibility: "hidden" }, owner()), "visibility")
    expectInvalid(await api.post("/api/sections", { title: "   " }, owner()), "title")
    expectInvalid(await api.call("POST", "/api/sections", { raw: "{not json", ...owner() }), "body")
  })
})

describe("GET /api/sections and /api/sections/{id}", () => {
  it("lists in order with keyset pagination", async () => {
    const community = await newCommunity(api)
    const ids: Array<string> = []
    for (const title of ["A", "B", "C", "D", "E"]) ids.push((await createSection(api, community, { title })).id)
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(
        `/api/sections?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        as(community.owner, community.community)
      )
      expectOk(reply, 200, Messages.sections.pt)
      expect(reply.body.pagination.limit).toBe(2)
      seen.push(...reply.body.data.map((s: { id: string }) => s.id))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual(ids)
  })

  it("answers 400 for a malformed cursor or limit", async () => {
    expectInvalid(await api.get("/api/sections?cursor=nonsense", owner()), "cursor", "query")
    const wrongShape = Buffer.from(JSON.stringify(["x", 1])).toString("base64url")
    expectInvalid(await api.get(`/api/sections?cursor=${wrongShape}`, owner()), "cursor", "query")
    expectInvalid(await api.get("/api/sections?limit=0", owner()), "limit", "query")
  })

  it("shows a section; 404 for another community's, 400 for a malformed id", async () => {
    const section = await createSection(api, setup, { title: "Detalhe" })
    const data = expectOk(await api.get(`/api/sections/${section.id}`, owner()), 200, Messages.section.pt)
    expect(data).toMatchObject({ id: section.id, title: "Detalhe" })

    const other = await newCommunity(api)
    const foreign = await createSection(api, other)
    expectError(await api.get(`/api/sections/${foreign.id}`, owner()), 404, Messages.sectionNotFound.pt)
    expectError(await api.get(`/api/sections/${unknownId()}`, owner()), 404)
    expectInvalid(await api.get("/api/sections/not-a-uuid", owner()), "id", "params")
  })

  it("needs the community header, even without a token", async () => {
    expectInvalid(await api.get("/api/sections"), "X-CommunityId", "headers")
  })
})

describe("PUT /api/sections/{id}", () => {
  it("renames and opens a section", async () => {
    const section = await createSection(api, setup, { title: "Antes", visibility: "secret" })
    const data = expectOk(
      await api.put(`/api/sections/${section.id}`, { title: "Depois", visibility: "public" }, owner()),
      200,
      Messages.sectionUpdated.pt
    )
    expect(data).toMatchObject({ title: "Depois", visibility: "public" })
  })

  it("refuses to close a section below one of its spaces", async () => {
    const section = await createSection(api, setup, { title: "Aberta", visibility: "public" })
    await createSpace(api, setup, section.id, { title: "Praça", visibility: "public" })
    const reply = await api.put(`/api/sections/${section.id}`, { visibility: "private" }, owner())
    const body = expectInvalid(reply, "visibility")
    expect(body.message).toBe(
      "This space cannot be more open than the section \"Aberta\" (private): space \"Praça\" is public."
    )
    expect(body.message.startsWith("This space cannot be more open than the section ")).toBe(true)
  })

  it("refuses a member, 404 for another community's section", async () => {
    const section = await createSection(api, setup)
    expectError(await api.put(`/api/sections/${section.id}`, { title: "X" }, as(member, setup.community)), 403)
    const other = await newCommunity(api)
    const foreign = await createSection(api, other)
    expectError(await api.put(`/api/sections/${foreign.id}`, { title: "X" }, owner()), 404)
  })
})

describe("DELETE /api/sections/{id}", () => {
  it("removes an empty section, refuses one with spaces (409)", async () => {
    const empty = await createSection(api, setup)
    expectOk(await api.del(`/api/sections/${empty.id}`, owner()), 200, Messages.sectionRemoved.pt)
    expectError(await api.get(`/api/sections/${empty.id}`, owner()), 404)

    const full = await createSection(api, setup)
    await createSpace(api, setup, full.id)
    expectError(await api.del(`/api/sections/${full.id}`, owner()), 409, Messages.sectionHasSpaces.pt)
  })

  it("refuses a member (403), another community's section (404)", async () => {
    const section = await createSection(api, setup)
    expectError(
      await api.del(`/api/sections/${section.id}`, as(member, setup.community)),
      403,
      STAFF_REQUIRED("member")
    )
    const other = await newCommunity(api)
    const foreign = await createSection(api, other)
    expectError(await api.del(`/api/sections/${foreign.id}`, owner()), 404)
  })
})

describe("POST /api/sections/reorder", () => {
  it("puts the sections in the given order", async () => {
    const community = await newCommunity(api)
    const ids = [
      (await createSection(api, community, { title: "1" })).id,
      (await createSection(api, community, { title: "2" })).id,
      (await createSection(api, community, { title: "3" })).id
    ]
    const order = [ids[2]!, ids[0]!, ids[1]!]
    const call = as(community.owner, community.community)
    const data = expectOk(
      await api.post("/api/sections/reorder", { ids: order }, call),
      200,
      Messages.sectionsReordered.pt
    )
    expect(data.map((s: { id: string }) => s.id)).toEqual(order)
    const listed = expectOk(await api.get("/api/sections", call))
    expect(listed.map((s: { id: string }) => s.id)).toEqual(order)
    expect(listed.map((s: { position: number }) => s.position)).toEqual([0, 1, 2])
  })

  it("refuses a list that is not exactly the current set", async () => {
    const community = await newCommunity(api)
    const call = as(community.owner, community.community)
    const a = (await createSection(api, community)).id
    const b = (await createSection(api, community)).id
    const foreign = (await createSection(api, setup)).id
    for (const ids of [[a], [a, b, b], [a, b, foreign], [a, foreign], []]) {
      const body = expectInvalid(await api.post("/api/sections/reorder", { ids }, call), "ids")
      expect(body.message).toBe(Messages.sectionsReorderMismatch.pt)
    }
    expectInvalid(await api.post("/api/sections/reorder", { ids: ["nope"] }, call), "ids.0")
    expectInvalid(await api.post("/api/sections/reorder", {}, call), "ids")
    expectOk(await api.post("/api/sections/reorder", { ids: [b.toUpperCase(), a] }, call))
  })

  it("refuses a member with 403", async () => {
    expectError(await api.post("/api/sections/reorder", { ids: [] }, as(member, setup.community)), 403)
  })
})
