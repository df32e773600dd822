import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { structureMessages } from "../../src/structure/messages"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { contract, fails, invalid, ok } from "../support/contract"
import { expectInvalid, unknownId, UUID } from "../support/envelope"
import { client, startRoda, type TestUser } from "../support/harness"
import { createSpace, STAFF_REQUIRED } from "../support/structure"

// The model of a suite on the typed client (support/contract.ts): contract calls through `typed`,
// input the contract's types cannot express (untrimmed text, malformed ids, bodies) raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: TestCommunity
let member: TestUser & { profileId: string }
let moderator: TestUser & { profileId: string }
beforeAll(async () => {
  setup = await newCommunity(api, "Estrutura")
  member = await setup.addMember("member")
  moderator = await setup.addMember("moderator")
})

const owner = () => typed.as(setup.owner, setup.community)
const ownerOf = (community: TestCommunity) => typed.as(community.owner, community.community)

const createSection = async (
  community: TestCommunity,
  payload: { title?: string; visibility?: "public" | "private" | "secret" } = {}
) => (await ok(ownerOf(community).sections.create({ payload: { title: "Seção", ...payload } }))).data

describe("POST /api/sections", () => {
  it("creates a section at the end, public by default", async () => {
    const community = await newCommunity(api)
    const reply = await ok(ownerOf(community).sections.create({ payload: { title: "Boas-vindas" } }))
    expect(reply.message).toBe(structureMessages.sectionCreated.pt)
    expect(reply.data.id).toMatch(UUID)
    expect(reply.data).toMatchObject({
      communityId: community.community.id,
      title: "Boas-vindas",
      visibility: "public",
      position: 0
    })
    const second = await createSection(community, { title: "Membros", visibility: "private" })
    expect(second).toMatchObject({ visibility: "private", position: 1 })
  })

  it("trims the title (raw: the contract's type of a title is already trimmed)", async () => {
    const community = await newCommunity(api)
    const reply = await api.post(
      "/api/sections",
      { title: "  Boas-vindas  " },
      as(community.owner, community.community)
    )
    expect(reply.status).toBe(201)
    const created = await ok(ownerOf(community).sections.get({ path: { id: reply.body.data.id as string } }))
    expect(created.data.title).toBe("Boas-vindas")
  })

  it("lets a moderator create, and refuses a member with 403", async () => {
    await ok(typed.as(moderator, setup.community).sections.create({ payload: { title: "Mod" } }))
    await fails(
      typed.as(member, setup.community).sections.create({ payload: { title: "Nope" } }),
      403,
      STAFF_REQUIRED("member")
    )
  })

  it("requires a token", async () => {
    await fails(typed.anonymous(setup.community).sections.create({ payload: { title: "X" } }), 401)
  })

  it("answers 400 for a missing title or an unknown visibility", async () => {
    const call = as(setup.owner, setup.community)
    expectInvalid(await api.post("/api/sections", {}, call), "title")
    expectInvalid(await api.post("/api/sections", { title: "X", visibility: "hidden" }, call), "visibility")
    expectInvalid(await api.post("/api/sections", { title: "   " }, call), "title")
    expectInvalid(await api.call("POST", "/api/sections", { raw: "{not json", ...call }), "body")
  })
})

describe("GET /api/sections and /api/sections/{id}", () => {
  it("lists in order with keyset pagination", async () => {
    const community = await newCommunity(api)
    const ids: Array<string> = []
    for (const title of ["A", "B", "C", "D", "E"]) ids.push((await createSection(community, { title })).id)
    const pageAfter = (cursor: string | null) =>
      ok(ownerOf(community).sections.list({ urlParams: cursor === null ? { limit: 2 } : { limit: 2, cursor } }))
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const page = await pageAfter(cursor)
      expect(page.message).toBe(structureMessages.sections.pt)
      expect(page.pagination.limit).toBe(2)
      seen.push(...page.data.map((section) => section.id))
      cursor = page.pagination.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual(ids)
  })

  it("answers 400 for a malformed cursor or limit", async () => {
    await invalid(owner().sections.list({ urlParams: { cursor: "nonsense" } }), "cursor", "query")
    const wrongShape = Buffer.from(JSON.stringify(["x", 1])).toString("base64url")
    await invalid(owner().sections.list({ urlParams: { cursor: wrongShape } }), "cursor", "query")
    expectInvalid(await api.get("/api/sections?limit=0", as(setup.owner, setup.community)), "limit", "query")
  })

  it("shows a section; 404 for another community's, 400 for a malformed id", async () => {
    const section = await createSection(setup, { title: "Detalhe" })
    const shown = await ok(owner().sections.get({ path: { id: section.id } }))
    expect(shown.message).toBe(structureMessages.section.pt)
    expect(shown.data).toMatchObject({ id: section.id, title: "Detalhe" })

    const foreign = await createSection(await newCommunity(api))
    await fails(owner().sections.get({ path: { id: foreign.id } }), 404, structureMessages.sectionNotFound.pt)
    await fails(owner().sections.get({ path: { id: unknownId() } }), 404)
    expectInvalid(await api.get("/api/sections/not-a-uuid", as(setup.owner, setup.community)), "id", "params")
  })

  it("needs the community header, even without a token", async () => {
    await invalid(typed.anonymous().sections.list({ urlParams: {} }), "X-CommunityId", "headers")
  })
})

describe("PUT /api/sections/{id}", () => {
  it("renames and opens a section", async () => {
    const section = await createSection(setup, { title: "Antes", visibility: "secret" })
    const updated = await ok(
      owner().sections.update({ path: { id: section.id }, payload: { title: "Depois", visibility: "public" } })
    )
    expect(updated.message).toBe(structureMessages.sectionUpdated.pt)
    expect(updated.data).toMatchObject({ title: "Depois", visibility: "public" })
  })

  it("refuses to close a section below one of its spaces", async () => {
    const section = await createSection(setup, { title: "Aberta", visibility: "public" })
    await createSpace(api, setup, section.id, { title: "Praça", visibility: "public" })
    const error = await invalid(
      typed.clientOf({ token: setup.owner.token, communityId: setup.community.id, language: "en" }).sections.update({
        path: { id: section.id },
        payload: { visibility: "private" }
      }),
      "visibility"
    )
    expect(error.text.en).toBe(
      "This space cannot be more open than the section \"Aberta\" (private): space \"Praça\" is public."
    )
  })

  it("refuses a member, 404 for another community's section", async () => {
    const section = await createSection(setup)
    const asMember = typed.as(member, setup.community)
    await fails(asMember.sections.update({ path: { id: section.id }, payload: { title: "X" } }), 403)
    const foreign = await createSection(await newCommunity(api))
    await fails(owner().sections.update({ path: { id: foreign.id }, payload: { title: "X" } }), 404)
  })
})

describe("DELETE /api/sections/{id}", () => {
  it("removes an empty section, refuses one with spaces (409)", async () => {
    const empty = await createSection(setup)
    const removed = await ok(owner().sections.remove({ path: { id: empty.id } }))
    expect(removed).toMatchObject({ message: structureMessages.sectionRemoved.pt, data: null })
    await fails(owner().sections.get({ path: { id: empty.id } }), 404)

    const full = await createSection(setup)
    await createSpace(api, setup, full.id)
    await fails(owner().sections.remove({ path: { id: full.id } }), 409, structureMessages.sectionHasSpaces.pt)
  })

  it("refuses a member (403), another community's section (404)", async () => {
    const section = await createSection(setup)
    await fails(
      typed.as(member, setup.community).sections.remove({ path: { id: section.id } }),
      403,
      STAFF_REQUIRED("member")
    )
    const foreign = await createSection(await newCommunity(api))
    await fails(owner().sections.remove({ path: { id: foreign.id } }), 404)
  })
})

describe("POST /api/sections/reorder", () => {
  it("puts the sections in the given order", async () => {
    const community = await newCommunity(api)
    const ids = [
      (await createSection(community, { title: "1" })).id,
      (await createSection(community, { title: "2" })).id,
      (await createSection(community, { title: "3" })).id
    ]
    const order = [ids[2]!, ids[0]!, ids[1]!]
    const reordered = await ok(ownerOf(community).sections.reorder({ payload: { ids: order } }))
    expect(reordered.message).toBe(structureMessages.sectionsReordered.pt)
    expect(reordered.data.map((section) => section.id)).toEqual(order)
    const listed = await ok(ownerOf(community).sections.list({ urlParams: {} }))
    expect(listed.data.map((section) => section.id)).toEqual(order)
    expect(listed.data.map((section) => section.position)).toEqual([0, 1, 2])
  })

  it("refuses a list that is not exactly the current set", async () => {
    const community = await newCommunity(api)
    const a = (await createSection(community)).id
    const b = (await createSection(community)).id
    const foreign = (await createSection(setup)).id
    for (const ids of [[a], [a, b, b], [a, b, foreign], [a, foreign], []]) {
      await fails(
        ownerOf(community).sections.reorder({ payload: { ids } }),
        400,
        structureMessages.sectionsReorderMismatch.pt
      )
    }
    const call = as(community.owner, community.community)
    expectInvalid(await api.post("/api/sections/reorder", { ids: ["nope"] }, call), "ids.0")
    expectInvalid(await api.post("/api/sections/reorder", {}, call), "ids")
    await ok(ownerOf(community).sections.reorder({ payload: { ids: [b.toUpperCase(), a] } }))
  })

  it("refuses a member with 403", async () => {
    await fails(typed.as(member, setup.community).sections.reorder({ payload: { ids: [] } }), 403)
  })
})
