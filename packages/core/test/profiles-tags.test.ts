import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "./support/envelope"
import { client, startRoda } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const STAFF_ONLY = (role: string) => roleRequired(["owner", "admin", "moderator"], role)
const tagPath = (tag: string) => `/api/profiles/tags/${encodeURIComponent(tag)}`

const setTags = (c: TestCommunity, profileId: string, tags: ReadonlyArray<string>) =>
  api.put(`/api/profiles/${profileId}/tags`, { tags }, as(c.owner, c.community))

const tagsOf = async (c: TestCommunity) => expectOk(await api.get("/api/profiles/tags", as(c.owner, c.community)))

/** Tags of each profile of the community, by profile id. */
const profileTags = async (c: TestCommunity): Promise<Record<string, ReadonlyArray<string>>> =>
  Object.fromEntries(
    expectOk(await api.get("/api/profiles/list", as(c.owner, c.community))).map((
      p: { id: string; tags: Array<string> }
    ) => [
      p.id,
      [...p.tags].sort()
    ])
  )

/** A community whose members carry tags, and a second community using the same tag names. */
const tagged = async () => {
  const a = await newCommunity(api)
  const b = await newCommunity(api)
  const ana = await a.addMember("member", "Ana")
  const bia = await a.addMember("member", "Bia")
  const caio = await a.addMember("member", "Caio")
  const other = await b.addMember("member", "Outra")
  expectOk(await setTags(a, ana.profileId, ["vip", "turma-1"]))
  expectOk(await setTags(a, bia.profileId, ["vip", "turma-2"]))
  expectOk(await setTags(a, caio.profileId, ["turma-1"]))
  expectOk(await setTags(b, other.profileId, ["vip", "turma-1"]))
  return { a, b, ana, bia, caio, other }
}

describe("PUT /api/profiles/{id}/tags", () => {
  it("sets the manual tags of a profile, trimmed and without repeats", async () => {
    const c = await newCommunity(api)
    const member = await c.addMember("member")
    const data = expectOk(
      await setTags(c, member.profileId, [" vip ", "Turma 2024", "vip"]),
      200,
      communityMessages.profileUpdated.pt
    )
    expect(data).toMatchObject({ id: member.profileId, tags: ["vip", "Turma 2024"] })
    expect(expectOk(await setTags(c, member.profileId, ["outra"])).tags).toEqual(["outra"])
    expect(expectOk(await setTags(c, member.profileId, [])).tags).toEqual([])
  })

  it("is for staff: owner, admin and moderator", async () => {
    const c = await newCommunity(api)
    const target = await c.addMember("member")
    for (const role of ["admin", "moderator"]) {
      const staff = await c.addMember(role)
      expect(
        expectOk(await api.put(`/api/profiles/${target.profileId}/tags`, { tags: [role] }, as(staff, c.community))).tags
      ).toEqual([role])
    }
    for (const role of ["member", "finance"]) {
      const user = await c.addMember(role)
      expectError(
        await api.put(`/api/profiles/${target.profileId}/tags`, { tags: ["x"] }, as(user, c.community)),
        403,
        STAFF_ONLY(role)
      )
      expectError(
        await api.put(`/api/profiles/${user.profileId}/tags`, { tags: ["x"] }, as(user, c.community)),
        403,
        STAFF_ONLY(role)
      )
    }
    expect((await profileTags(c))[target.profileId]).toEqual(["moderator"])
  })

  it("answers 404 for another community's profile and 400 for bad input", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const inB = await b.addMember("member")
    const inA = await a.addMember("member")
    expectError(await setTags(a, inB.profileId, ["x"]), 404, communityMessages.profileNotFound.pt)
    expectError(await setTags(a, unknownId(), ["x"]), 404)
    expect((await profileTags(b))[inB.profileId]).toEqual([])

    expectInvalid(await api.put("/api/profiles/abc/tags", { tags: [] }, as(a.owner, a.community)), "id", "params")
    expectInvalid(await setTags(a, inA.profileId, [""]), "tags.0")
    expectInvalid(await setTags(a, inA.profileId, ["ok", "x".repeat(51)]), "tags.1")
    expectInvalid(await setTags(a, inA.profileId, Array.from({ length: 51 }, (_, i) => `t${i}`)), "tags")
    expectInvalid(
      await api.put(`/api/profiles/${inA.profileId}/tags`, { tags: "vip" }, as(a.owner, a.community)),
      "tags"
    )
    expectInvalid(
      await api.put(`/api/profiles/${inA.profileId}/tags`, { tags: [1] }, as(a.owner, a.community)),
      "tags.0"
    )
    expectInvalid(await api.put(`/api/profiles/${inA.profileId}/tags`, {}, as(a.owner, a.community)), "tags")
    expect((await profileTags(a))[inA.profileId]).toEqual([])
  })
})

describe("GET /api/profiles/tags", () => {
  it("counts the tags in use in this community only, for any member", async () => {
    const { a, b, caio } = await tagged()
    const reply = await api.get("/api/profiles/tags", as(caio, a.community))
    expect(expectOk(reply, 200, communityMessages.tags.pt)).toEqual([
      { tag: "turma-1", count: 2, color: null },
      { tag: "turma-2", count: 1, color: null },
      { tag: "vip", count: 2, color: null }
    ])
    expect(await tagsOf(b)).toEqual([
      { tag: "turma-1", count: 1, color: null },
      { tag: "vip", count: 1, color: null }
    ])
  })

  it("counts every tag of a profile that carries many", async () => {
    const c = await newCommunity(api)
    const many = await c.addMember("member", "Muitas")
    const few = await c.addMember("member", "Poucas")
    const tags = Array.from({ length: 12 }, (_, i) => `t${String(i).padStart(2, "0")}`)
    expectOk(await setTags(c, many.profileId, tags))
    expectOk(await setTags(c, few.profileId, ["t00", "t11"]))
    expect(await tagsOf(c)).toEqual(
      tags.map((tag) => ({ tag, count: tag === "t00" || tag === "t11" ? 2 : 1, color: null }))
    )
  })

  it("leaves out removed members", async () => {
    const { a, bia } = await tagged()
    expectOk(await api.del(`/api/profiles/${bia.profileId}`, as(a.owner, a.community)))
    expect(await tagsOf(a)).toEqual([
      { tag: "turma-1", count: 2, color: null },
      { tag: "vip", count: 1, color: null }
    ])
  })
})

describe("PUT /api/profiles/tags/{tag}", () => {
  it("renames a tag on every profile of the community", async () => {
    const { a, b, ana, caio, other } = await tagged()
    const reply = await api.put(tagPath("turma-1"), { name: "turma-um" }, as(a.owner, a.community))
    expect(expectOk(reply, 200, communityMessages.tagRenamed.pt)).toEqual({ profilesChanged: 2 })
    const tags = await profileTags(a)
    expect(tags[ana.profileId]).toEqual(["turma-um", "vip"])
    expect(tags[caio.profileId]).toEqual(["turma-um"])
    expect((await profileTags(b))[other.profileId]).toEqual(["turma-1", "vip"])
    expect(expectOk(await api.get("/api/profiles/list?tag=turma-1", as(a.owner, a.community)))).toEqual([])
  })

  it("merges into the target tag when a profile already has it", async () => {
    const { a, ana, bia, caio } = await tagged()
    expect(expectOk(await api.put(tagPath("turma-1"), { name: "vip" }, as(a.owner, a.community)))).toEqual({
      profilesChanged: 2
    })
    const tags = await profileTags(a)
    expect(tags[ana.profileId]).toEqual(["vip"])
    expect(tags[bia.profileId]).toEqual(["turma-2", "vip"])
    expect(tags[caio.profileId]).toEqual(["vip"])
    expect(await tagsOf(a)).toEqual([
      { tag: "turma-2", count: 1, color: null },
      { tag: "vip", count: 3, color: null }
    ])
  })

  it("carries the color to the new name, and keeps the target's own color on a merge", async () => {
    const { a } = await tagged()
    const auth = as(a.owner, a.community)
    expectOk(await api.put(`${tagPath("turma-1")}/color`, { color: "#111111" }, auth))
    expectOk(await api.put(`${tagPath("turma-2")}/color`, { color: "#222222" }, auth))
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#333333" }, auth))

    expectOk(await api.put(tagPath("turma-1"), { name: "primeira" }, auth))
    expectOk(await api.put(tagPath("turma-2"), { name: "vip" }, auth))
    expect(await tagsOf(a)).toEqual([
      { tag: "primeira", count: 2, color: "#111111" },
      { tag: "vip", count: 2, color: "#333333" }
    ])
  })

  it("keeps the tag when renamed to its own name", async () => {
    const { a } = await tagged()
    const auth = as(a.owner, a.community)
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#abcdef" }, auth))
    expect(expectOk(await api.put(tagPath("vip"), { name: "vip" }, auth))).toEqual({ profilesChanged: 0 })
    expect(expectOk(await api.put(tagPath("vip"), { name: " vip " }, auth))).toEqual({ profilesChanged: 0 })
    expect(await tagsOf(a)).toContainEqual({ tag: "vip", count: 2, color: "#abcdef" })
    expectError(await api.put(tagPath("nenhuma"), { name: "nenhuma" }, auth), 404, communityMessages.tagNotFound.pt)
  })

  it("counts live profiles only: a tag left only on removed members is not found", async () => {
    const { a, bia } = await tagged()
    const auth = as(a.owner, a.community)
    expectOk(await api.del(`/api/profiles/${bia.profileId}`, auth))
    expect(expectOk(await api.put(tagPath("vip"), { name: "estrela" }, auth))).toEqual({ profilesChanged: 1 })
    expectError(await api.put(tagPath("turma-2"), { name: "x" }, auth), 404, communityMessages.tagNotFound.pt)
    expectError(await api.del(tagPath("turma-2"), auth), 404, communityMessages.tagNotFound.pt)
    expectError(
      await api.put(`${tagPath("turma-2")}/color`, { color: "#ffffff" }, auth),
      404,
      communityMessages.tagNotFound.pt
    )
  })

  it("handles a tag with spaces and accents in the path", async () => {
    const c = await newCommunity(api)
    const member = await c.addMember("member")
    expectOk(await setTags(c, member.profileId, ["Turma São Paulo"]))
    expect(expectOk(await api.put(tagPath("Turma São Paulo"), { name: "Turma SP" }, as(c.owner, c.community)))).toEqual(
      { profilesChanged: 1 }
    )
    expect((await profileTags(c))[member.profileId]).toEqual(["Turma SP"])
  })

  it("answers 404 for a tag nobody here carries, even if another community uses it", async () => {
    const { a, b } = await tagged()
    expectError(
      await api.put(tagPath("inexistente"), { name: "x" }, as(a.owner, a.community)),
      404,
      communityMessages.tagNotFound.pt
    )
    const c = await newCommunity(api)
    expectError(
      await api.put(tagPath("vip"), { name: "x" }, as(c.owner, c.community)),
      404,
      communityMessages.tagNotFound.pt
    )
    expect((await tagsOf(b)).map((t: { tag: string }) => t.tag)).toEqual(["turma-1", "vip"])
  })

  it("is for staff, and validates the new name", async () => {
    const { a, ana } = await tagged()
    const moderator = await a.addMember("moderator")
    expectError(await api.put(tagPath("vip"), { name: "x" }, as(ana, a.community)), 403, STAFF_ONLY("member"))
    expectInvalid(await api.put(tagPath("vip"), { name: "" }, as(a.owner, a.community)), "name")
    expectInvalid(await api.put(tagPath("vip"), { name: "n".repeat(51) }, as(a.owner, a.community)), "name")
    expectInvalid(await api.put(tagPath("vip"), {}, as(a.owner, a.community)), "name")
    expectInvalid(await api.put(tagPath("t".repeat(51)), { name: "x" }, as(a.owner, a.community)), "tag", "params")
    expectOk(await api.put(tagPath("vip"), { name: "VIP" }, as(moderator, a.community)))
    expect((await tagsOf(a)).map((t: { tag: string }) => t.tag)).toEqual(["turma-1", "turma-2", "VIP"].sort())
  })
})

describe("DELETE /api/profiles/tags/{tag}", () => {
  it("removes the tag from every profile of this community only", async () => {
    const { a, b, ana, bia, other } = await tagged()
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#00ff00" }, as(a.owner, a.community)))
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#0000ff" }, as(b.owner, b.community)))

    const reply = await api.del(tagPath("vip"), as(a.owner, a.community))
    expect(expectOk(reply, 200, communityMessages.tagRemoved.pt)).toEqual({ profilesChanged: 2 })
    const tags = await profileTags(a)
    expect(tags[ana.profileId]).toEqual(["turma-1"])
    expect(tags[bia.profileId]).toEqual(["turma-2"])
    expect((await tagsOf(a)).map((t: { tag: string }) => t.tag)).toEqual(["turma-1", "turma-2"])

    expect((await profileTags(b))[other.profileId]).toEqual(["turma-1", "vip"])
    expect(await tagsOf(b)).toContainEqual({ tag: "vip", count: 1, color: "#0000ff" })

    expectError(await api.del(tagPath("vip"), as(a.owner, a.community)), 404, communityMessages.tagNotFound.pt)
  })

  it("forgets the color, so a tag given again starts without one", async () => {
    const { a, ana } = await tagged()
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#123456" }, as(a.owner, a.community)))
    expectOk(await api.del(tagPath("vip"), as(a.owner, a.community)))
    expectOk(await setTags(a, ana.profileId, ["vip"]))
    expect(await tagsOf(a)).toContainEqual({ tag: "vip", count: 1, color: null })
  })

  it("is for staff", async () => {
    const { a, ana } = await tagged()
    const finance = await a.addMember("finance")
    expectError(await api.del(tagPath("vip"), as(ana, a.community)), 403, STAFF_ONLY("member"))
    expectError(await api.del(tagPath("vip"), as(finance, a.community)), 403, STAFF_ONLY("finance"))
    expect((await tagsOf(a)).find((t: { tag: string }) => t.tag === "vip").count).toBe(2)
    const admin = await a.addMember("admin")
    expectOk(await api.del(tagPath("vip"), as(admin, a.community)))
  })
})

describe("PUT /api/profiles/tags/{tag}/color", () => {
  it("sets the color of a tag of this community, in lower case", async () => {
    const { a, b } = await tagged()
    const reply = await api.put(`${tagPath("vip")}/color`, { color: "#AbCdEf" }, as(a.owner, a.community))
    expect(expectOk(reply, 200, communityMessages.tagColorSet.pt)).toEqual({ tag: "vip", color: "#abcdef" })
    expect(await tagsOf(a)).toContainEqual({ tag: "vip", count: 2, color: "#abcdef" })
    expect(await tagsOf(b)).toContainEqual({ tag: "vip", count: 1, color: null })

    expect(expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#000000" }, as(a.owner, a.community))).color)
      .toBe("#000000")
    expect(await tagsOf(a)).toContainEqual({ tag: "vip", count: 2, color: "#000000" })
  })

  it("answers 400 for a bad color and 404 for an unknown tag", async () => {
    const { a } = await tagged()
    const auth = as(a.owner, a.community)
    for (const color of ["red", "#12345", "#1234567", "123456", "#gggggg"]) {
      expectInvalid(await api.put(`${tagPath("vip")}/color`, { color }, auth), "color")
    }
    expectInvalid(await api.put(`${tagPath("vip")}/color`, { color: 0xffffff }, auth), "color")
    expectInvalid(await api.put(`${tagPath("vip")}/color`, {}, auth), "color")
    expectError(
      await api.put(`${tagPath("nenhuma")}/color`, { color: "#ffffff" }, auth),
      404,
      communityMessages.tagNotFound.pt
    )
    const c = await newCommunity(api)
    expectError(
      await api.put(`${tagPath("vip")}/color`, { color: "#ffffff" }, as(c.owner, c.community)),
      404,
      communityMessages.tagNotFound.pt
    )
    expect((await tagsOf(a)).every((t: { color: string | null }) => t.color === null)).toBe(true)
  })

  it("is for staff", async () => {
    const { a, ana } = await tagged()
    expectError(
      await api.put(`${tagPath("vip")}/color`, { color: "#ffffff" }, as(ana, a.community)),
      403,
      STAFF_ONLY("member")
    )
    const moderator = await a.addMember("moderator")
    expectOk(await api.put(`${tagPath("vip")}/color`, { color: "#ffffff" }, as(moderator, a.community)))
  })
})
