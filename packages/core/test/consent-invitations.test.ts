import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { as, newCommunity, NOT_MEMBER } from "./support/community"
import { expectCreated, expectError, expectOk, roleRequired, unknownId } from "./support/envelope"
import { client, PASSWORD, register, startRoda, uniqueEmail } from "./support/harness"
import { outboxFor, passwordLinkFor } from "./support/outbox"

/**
 * Issue 10, item 1: adding an existing account by e-mail is an invitation the person accepts or
 * declines; nobody becomes a member without consent.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const accept = (id: string, user: { token: string }, community: { id: string }) =>
  api.post(`/api/profiles/${id}/accept`, undefined, as(user, community))
const decline = (id: string, user: { token: string }, community: { id: string }) =>
  api.post(`/api/profiles/${id}/decline`, undefined, as(user, community))

describe("adding an existing account", () => {
  for (const route of ["create", "invite"] as const) {
    it(`POST /api/profiles/${route} invites: 201 status invited, an e-mail, and no membership yet`, async () => {
      const { owner, community } = await newCommunity(api)
      const person = await register(api, "Ivo Invited")
      const data = expectCreated(
        await api.post(`/api/profiles/${route}`, { email: person.email, role: "moderator" }, as(owner, community))
      )
      expect(data).toMatchObject({ status: "invited", accountId: person.id, role: "moderator" })
      // after the confirmation link sign-up sent
      const mails = (await outboxFor(roda, person.email)).filter((m) => m.kind !== "verify-email")
      expect(mails.map((m) => m.kind)).toEqual(["invitation"])
      expect(mails[0]!.body).toContain(data.id)
      // an account with a password gets no set-password link from someone else's action
      expect(mails[0]!.body).not.toContain("set-password")

      // not a member: cannot act, is not in /communities/my, not in any member list
      expectError(await api.get("/api/profiles/list", as(person, community)), 403, NOT_MEMBER)
      expectError(await api.get("/api/profiles/tags", as(person, community)), 403, NOT_MEMBER)
      expect(expectOk(await api.get("/api/communities/my", { token: person.token }))).toEqual([])
      const list = expectOk(await api.get("/api/profiles/list", as(owner, community)))
      expect(list.map((p: { id: string }) => p.id)).not.toContain(data.id)
      const members = expectOk(await api.get(`/api/communities/${community.id}/members`, as(owner, community)))
      expect(members.map((p: { id: string }) => p.id)).not.toContain(data.id)
      const found = expectOk(await api.get("/api/profiles/autocomplete?q=Ivo", as(owner, community)))
      expect(found).toEqual([])
      // nor may staff act as the invited profile
      expectError(await api.get("/api/profiles/list", { ...as(owner, community), profile: data.id }), 404)

      // the person sees the invitation
      const mine = expectOk(await api.get("/api/profiles/my", { token: person.token }))
      expect(mine).toEqual([
        expect.objectContaining({
          id: data.id,
          status: "invited",
          community: expect.objectContaining({ id: community.id })
        })
      ])

      // and accepts it: a member with the role offered
      const accepted = expectOk(await accept(data.id, person, community), 200, communityMessages.invitationAccepted.pt)
      expect(accepted).toMatchObject({ id: data.id, status: "active", role: "moderator" })
      expectOk(await api.get("/api/profiles/list", as(person, community)))
      expect(expectOk(await api.get("/api/communities/my", { token: person.token }))).toEqual([
        expect.objectContaining({ id: community.id, role: "moderator", profileId: data.id })
      ])
      // accepting again answers the same profile
      expect(expectOk(await accept(data.id, person, community))).toMatchObject({ status: "active" })
    })
  }

  it("answers 409 to a second invitation while the first is open", async () => {
    const { owner, community } = await newCommunity(api)
    const person = await register(api)
    expectCreated(await api.post("/api/profiles/invite", { email: person.email }, as(owner, community)))
    expectError(
      await api.post("/api/profiles/create", { email: person.email }, as(owner, community)),
      409,
      communityMessages.alreadyInvited.pt
    )
  })

  it("lets the person decline: the invitation is gone, and can be sent again", async () => {
    const { owner, community } = await newCommunity(api)
    const person = await register(api)
    const data = expectCreated(await api.post("/api/profiles/invite", { email: person.email }, as(owner, community)))
    expectOk(await decline(data.id, person, community), 200, communityMessages.invitationDeclined.pt)
    expect(expectOk(await api.get("/api/profiles/my", { token: person.token }))).toEqual([])
    expectError(await accept(data.id, person, community), 404)
    expectError(await decline(data.id, person, community), 404)
    const again = expectCreated(await api.post("/api/profiles/invite", { email: person.email }, as(owner, community)))
    expect(again).toMatchObject({ id: data.id, status: "invited" })
  })

  it("only the invited holder answers, with the community of the invitation", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const other = await newCommunity(api)
    const person = await register(api)
    const stranger = await register(api)
    const admin = await addMember("admin")
    const data = expectCreated(await api.post("/api/profiles/invite", { email: person.email }, as(owner, community)))
    expectError(await accept(data.id, stranger, community), 404)
    expectError(await accept(data.id, admin, community), 404)
    expectError(await accept(data.id, owner, community), 404)
    expectError(await accept(data.id, person, other.community), 404)
    expectError(await accept(unknownId(), person, community), 404)
    expectError(await decline(data.id, admin, community), 404)
    expectError(await api.post(`/api/profiles/${data.id}/accept`, undefined, { token: person.token }), 400)
    expectError(await api.post(`/api/profiles/${data.id}/accept`, undefined, { community: community.id }), 401)
    // still open for the holder
    expectOk(await accept(data.id, person, community))
  })

  it("invites a removed member again instead of restoring the membership", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    expectOk(await api.del(`/api/profiles/${member.profileId}`, as(owner, community)))
    const data = expectCreated(await api.post("/api/profiles/create", { email: member.email }, as(owner, community)))
    expect(data).toMatchObject({ id: member.profileId, status: "invited" })
    expectError(await api.get("/api/profiles/list", as(member, community)), 403, NOT_MEMBER)
    expectOk(await accept(data.id, member, community))
    expectOk(await api.get("/api/profiles/list", as(member, community)))
  })

  it("an invited owner does not count as an owner until accepted", async () => {
    const { owner, community } = await newCommunity(api)
    const person = await register(api)
    expectCreated(await api.post("/api/profiles/create", { email: person.email, role: "owner" }, as(owner, community)))
    expectError(
      await api.del(`/api/profiles/${owner.profileId}`, as(owner, community)),
      409,
      communityMessages.lastOwner.pt
    )
  })

  it("sends a set-password link with the invitation when the account has no password yet", async () => {
    const first = await newCommunity(api)
    const second = await newCommunity(api)
    const email = uniqueEmail("nopass")
    expectCreated(await api.post("/api/profiles/create", { email }, as(first.owner, first.community)))
    const data = expectCreated(await api.post("/api/profiles/invite", { email }, as(second.owner, second.community)))
    expect(data.status).toBe("invited")
    const link = await passwordLinkFor(roda, email, "invitation")
    expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }))
  })
})

describe("adding a new e-mail", () => {
  it("still creates the account with an active profile and a set-password link", async () => {
    const { owner, community } = await newCommunity(api)
    const email = uniqueEmail("fresh")
    const data = expectCreated(await api.post("/api/profiles/create", { email }, as(owner, community)))
    expect(data.status).toBe("active")
    const link = await passwordLinkFor(roda, email)
    expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }))
    const token = expectOk(await api.post("/api/auth/login", { email, password: PASSWORD })).token
    expectOk(await api.get("/api/profiles/list", { token, community: community.id }))
  })
})

describe("membersCanInvite", () => {
  const setInvite = async (made: Awaited<ReturnType<typeof newCommunity>>, value: boolean) =>
    expectOk(
      await api.patch(`/api/communities/${made.community.id}/settings`, { membersCanInvite: value }, {
        token: made.owner.token,
        community: made.community.id
      })
    )

  it("is off by default: a member inviting gets the role message", async () => {
    const made = await newCommunity(api)
    const member = await made.addMember("member")
    expectError(
      await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(member, made.community)),
      403,
      roleRequired(["owner", "admin"], "member")
    )
    await setInvite(made, false)
    expectError(await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(member, made.community)), 403)
  })

  it("when on, lets members and moderators invite with role member only, and never through /create", async () => {
    const made = await newCommunity(api)
    await setInvite(made, true)
    const member = await made.addMember("member")
    const moderator = await made.addMember("moderator")
    const invited = expectCreated(
      await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(member, made.community))
    )
    expect(invited).toMatchObject({ role: "member", status: "active" })
    expectCreated(
      await api.post("/api/profiles/invite", { email: uniqueEmail(), role: "member" }, as(moderator, made.community))
    )
    for (const role of ["moderator", "admin", "owner", "finance"]) {
      expectError(
        await api.post("/api/profiles/invite", { email: uniqueEmail(), role }, as(member, made.community)),
        403,
        roleRequired(["owner", "admin"], "member")
      )
    }
    expectError(await api.post("/api/profiles/create", { email: uniqueEmail() }, as(member, made.community)), 403)
  })
})
