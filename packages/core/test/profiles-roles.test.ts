import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { Messages } from "../src/domain/Messages"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectCreated, expectError, expectInvalid, expectOk, roleRequired, unknownId } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const setRole = (actor: { token: string }, community: { id: string }, profileId: string, role: string) =>
  api.put(`/api/profiles/${profileId}/role`, { role }, as(actor, community))

/** Ids of the community's owners, as `viewer` sees them. */
const ownersOf = async (viewer: { token: string }, community: { id: string }) =>
  expectOk(await api.get("/api/profiles/list?role=owner", as(viewer, community))).map((p: { id: string }) => p.id)

/** A second owner of the community, added by the first. */
const addOwner = async (c: TestCommunity, fullName = "Segundo Owner") => {
  const user = await register(api, fullName)
  const profile = expectCreated(
    await api.post("/api/profiles/create", { email: user.email, role: "owner" }, as(c.owner, c.community))
  )
  // an existing account is invited (issue 10): it is an owner once it accepts
  expectOk(await api.post(`/api/profiles/${profile.id}/accept`, undefined, as(user, c.community)))
  return { ...user, profileId: profile.id as string }
}

describe("PUT /api/profiles/{id}/role", () => {
  it("lets an owner give and take every role, owner included", async () => {
    const c = await newCommunity(api)
    const member = await c.addMember("member")
    for (const role of ["admin", "moderator", "finance", "owner", "member"]) {
      const reply = await setRole(c.owner, c.community, member.profileId, role)
      expect(expectOk(reply, 200, communityMessages.profileUpdated.pt)).toMatchObject({ id: member.profileId, role })
    }
    expect(expectOk(await api.get("/api/communities/my", { token: member.token }))[0].role).toBe("member")
  })

  it("makes the new role take effect at once", async () => {
    const c = await newCommunity(api)
    const member = await c.addMember("member")
    const path = `/api/communities/${c.community.id}/settings`
    expectError(
      await api.patch(path, { description: "x" }, as(member, c.community)),
      403,
      roleRequired(["owner", "admin"], "member")
    )
    expectOk(await setRole(c.owner, c.community, member.profileId, "admin"))
    expectOk(await api.patch(path, { description: "agora pode" }, as(member, c.community)))
    expectOk(await setRole(c.owner, c.community, member.profileId, "member"))
    expectError(
      await api.patch(path, { description: "x" }, as(member, c.community)),
      403,
      roleRequired(["owner", "admin"], "member")
    )
  })

  it("lets an admin manage moderator, member and finance only", async () => {
    const c = await newCommunity(api)
    const admin = await c.addMember("admin")
    const member = await c.addMember("member")
    const otherAdmin = await c.addMember("admin")

    expect(expectOk(await setRole(admin, c.community, member.profileId, "moderator")).role).toBe("moderator")
    expect(expectOk(await setRole(admin, c.community, member.profileId, "finance")).role).toBe("finance")
    expect(expectOk(await setRole(admin, c.community, member.profileId, "member")).role).toBe("member")

    expectError(
      await setRole(admin, c.community, member.profileId, "admin"),
      403,
      communityMessages.adminsManageLowerRoles.pt
    )
    expectError(
      await setRole(admin, c.community, member.profileId, "owner"),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )
    expectError(
      await setRole(admin, c.community, otherAdmin.profileId, "member"),
      403,
      communityMessages.adminsManageLowerRoles.pt
    )
    expectError(
      await setRole(admin, c.community, c.owner.profileId, "member"),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )
    expectError(
      await setRole(admin, c.community, c.owner.profileId, "admin"),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )

    const roles = Object.fromEntries(
      expectOk(await api.get("/api/profiles/list", as(c.owner, c.community))).map((
        p: { id: string; role: string }
      ) => [p.id, p.role])
    )
    expect(roles).toEqual({
      [c.owner.profileId]: "owner",
      [admin.profileId]: "admin",
      [member.profileId]: "member",
      [otherAdmin.profileId]: "admin"
    })
  })

  it("is refused to moderators, members and finance", async () => {
    const c = await newCommunity(api)
    const target = await c.addMember("member")
    for (const role of ["moderator", "member", "finance"]) {
      const user = await c.addMember(role)
      expectError(
        await setRole(user, c.community, target.profileId, "moderator"),
        403,
        roleRequired(["owner", "admin"], role)
      )
    }
  })

  it("never lets anyone change their own role", async () => {
    const c = await newCommunity(api)
    const admin = await c.addMember("admin")
    await addOwner(c)
    expectError(
      await setRole(c.owner, c.community, c.owner.profileId, "admin"),
      403,
      communityMessages.ownRoleChange.pt
    )
    expectError(
      await setRole(c.owner, c.community, c.owner.profileId, "owner"),
      403,
      communityMessages.ownRoleChange.pt
    )
    expectError(await setRole(admin, c.community, admin.profileId, "member"), 403, communityMessages.ownRoleChange.pt)
    expectError(
      await setRole(admin, c.community, admin.profileId.toUpperCase(), "moderator"),
      403,
      communityMessages.ownRoleChange.pt
    )
  })

  it("lets one of two owners demote the other, and the new sole owner is protected", async () => {
    const c = await newCommunity(api)
    const second = await addOwner(c)
    expect(expectOk(await setRole(second, c.community, c.owner.profileId, "admin")).role).toBe("admin")
    expect(await ownersOf(second, c.community)).toEqual([second.profileId])

    expectError(
      await setRole(c.owner, c.community, second.profileId, "member"),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )
    expectError(
      await api.del(`/api/profiles/${second.profileId}`, as(second, c.community)),
      409,
      communityMessages.lastOwner.pt
    )
  })

  it("never leaves the community without an owner when two owners demote each other at once", async () => {
    for (let round = 0; round < 5; round++) {
      const c = await newCommunity(api)
      const second = await addOwner(c)
      const replies = await Promise.all([
        setRole(c.owner, c.community, second.profileId, "admin"),
        setRole(second, c.community, c.owner.profileId, "admin")
      ])
      const statuses = replies.map((r) => r.status)
      for (const status of statuses) expect([200, 403, 409]).toContain(status)
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1)

      // Both stay members whatever happened; exactly one of them is still owner.
      const profiles = expectOk(await api.get(`/api/communities/${c.community.id}/members`, as(c.owner, c.community)))
      expect(profiles.filter((p: { role: string }) => p.role === "owner")).toHaveLength(1)
    }
  })

  it("never leaves the community without an owner when two owners leave or remove each other at once", async () => {
    const c = await newCommunity(api)
    const second = await addOwner(c)
    const leaving = await Promise.all([
      api.del(`/api/profiles/${c.owner.profileId}`, as(c.owner, c.community)),
      api.del(`/api/profiles/${second.profileId}`, as(second, c.community))
    ])
    expect(leaving.map((r) => r.status).sort()).toEqual([200, 409])
    const stayed = leaving[0]!.status === 200 ? second : c.owner
    expect(await ownersOf(stayed, c.community)).toEqual([stayed.profileId])

    const d = await newCommunity(api)
    const third = await addOwner(d)
    const removing = await Promise.all([
      api.del(`/api/profiles/${third.profileId}`, as(d.owner, d.community)),
      api.del(`/api/profiles/${d.owner.profileId}`, as(third, d.community))
    ])
    const ok = removing.filter((r) => r.status === 200).length
    expect(ok).toBeLessThanOrEqual(1)
    for (const reply of removing) expect([200, 403, 409]).toContain(reply.status)
    const survivor = removing[0]!.status === 200 ? d.owner : third
    expect(await ownersOf(survivor, d.community)).toEqual([survivor.profileId])
  })

  it("accepts the current role as a no-op", async () => {
    const c = await newCommunity(api)
    const member = await c.addMember("member")
    expect(expectOk(await setRole(c.owner, c.community, member.profileId, "member")).role).toBe("member")
  })

  it("answers 404 for another community's profile and 400 for bad input", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const inB = await b.addMember("member")
    const inA = await a.addMember("member")
    expectError(await setRole(a.owner, a.community, inB.profileId, "admin"), 404, communityMessages.profileNotFound.pt)
    expectError(await setRole(a.owner, a.community, unknownId(), "admin"), 404)
    expect(expectOk(await api.get("/api/communities/my", { token: inB.token }))[0].role).toBe("member")

    expectInvalid(await setRole(a.owner, a.community, "not-a-uuid", "admin"), "id", "params")
    const bad = expectInvalid(await setRole(a.owner, a.community, inA.profileId, "boss"), "role")
    expect(bad.errors.every((e: { param: string; location: string }) => e.param === "role" && e.location === "body"))
      .toBe(true)
    expectInvalid(await api.put(`/api/profiles/${inA.profileId}/role`, {}, as(a.owner, a.community)), "role")
    expectInvalid(await api.put(`/api/profiles/${inA.profileId}/role`, { role: 1 }, as(a.owner, a.community)), "role")
    expectError(
      await api.call("PUT", `/api/profiles/${inA.profileId}/role`, { raw: "role=admin", ...as(a.owner, a.community) }),
      400,
      Messages.invalidJson.pt
    )
    expectError(
      await api.put(`/api/profiles/${inA.profileId}/role`, { role: "admin" }, { community: a.community.id }),
      401
    )
  })
})
