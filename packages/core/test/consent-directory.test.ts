import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "./support/community"
import { expectOk } from "./support/envelope"
import { client, startRoda } from "./support/harness"

/** Issue 10, item 4: the member directory shows personal data only to staff and to the holder. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const PERSONAL = ["accountId", "email", "phone", "tags"]

const setup = async () => {
  const made = await newCommunity(api)
  const target = await made.addMember("member", "Teodoro Alvo")
  expectOk(
    await api.put(`/api/profiles/${target.profileId}/phone`, { phone: "+55 11 91234-5678" }, as(target, made.community))
  )
  expectOk(await api.put(`/api/profiles/${target.profileId}/tags`, { tags: ["vip"] }, as(made.owner, made.community)))
  const reader = await made.addMember("member", "Leitor Comum")
  return { ...made, target, reader }
}

const reads = (user: { token: string }, community: { id: string }) => ({
  list: async () => expectOk(await api.get("/api/profiles/list", as(user, community))),
  members: async () => expectOk(await api.get(`/api/communities/${community.id}/members`, as(user, community))),
  autocomplete: async (q: string) =>
    expectOk(await api.get(`/api/profiles/autocomplete?q=${encodeURIComponent(q)}`, as(user, community)))
})

describe("member directory privacy", () => {
  it("gives a plain member the public view of others, and their own profile in full", async () => {
    const { community, target, reader } = await setup()
    const as_reader = reads(reader, community)
    for (const rows of [await as_reader.list(), await as_reader.members(), await as_reader.autocomplete("Teo")]) {
      const other = rows.find((p: { id: string }) => p.id === target.profileId)
      expect(other).toBeDefined()
      expect(other).toMatchObject({ id: target.profileId, fullName: "Teodoro Alvo", role: "member", bio: null })
      for (const field of PERSONAL) expect(other).not.toHaveProperty(field)
      expect(JSON.stringify(rows)).not.toContain(target.email)
    }
    const own = (await as_reader.list()).find((p: { id: string }) => p.id === reader.profileId)
    expect(own).toMatchObject({ email: reader.email, accountId: reader.id, tags: [] })
  })

  it("does not let a plain member find people by e-mail", async () => {
    const { community, target, reader } = await setup()
    const prefix = target.email.slice(0, 12)
    expect(await reads(reader, community).autocomplete(prefix)).toEqual([])
    const searched = expectOk(
      await api.get(`/api/profiles/list?search=${encodeURIComponent(prefix)}`, as(reader, community))
    )
    expect(searched).toEqual([])
  })

  for (const role of ["owner", "admin", "moderator"] as const) {
    it(`shows ${role}s every field, and matches e-mails for them`, async () => {
      const made = await setup()
      const staff = role === "owner" ? made.owner : await made.addMember(role)
      const view = reads(staff, made.community)
      const byEmail = await view.autocomplete(made.target.email.slice(0, 12))
      expect(byEmail.map((p: { id: string }) => p.id)).toEqual([made.target.profileId])
      for (const rows of [await view.list(), await view.members()]) {
        expect(rows.find((p: { id: string }) => p.id === made.target.profileId)).toMatchObject({
          accountId: made.target.id,
          email: made.target.email,
          phone: "+55 11 91234-5678",
          tags: ["vip"]
        })
      }
    })
  }

  it("gives finance the public view", async () => {
    const made = await setup()
    const finance = await made.addMember("finance")
    const other = (await reads(finance, made.community).list()).find(
      (p: { id: string }) => p.id === made.target.profileId
    )
    for (const field of PERSONAL) expect(other).not.toHaveProperty(field)
  })
})
