import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { Messages } from "../src/domain/Messages"
import { identityMessages } from "../src/identity/messages"
import { as, newCommunity, NOT_MEMBER } from "./support/community"
import {
  expectCreated,
  expectError,
  expectInvalid,
  expectOk,
  roleRequired,
  uniqueTag,
  unknownId,
  UUID
} from "./support/envelope"
import { client, PASSWORD, register, registerUnverified, startRoda, uniqueEmail } from "./support/harness"
import { outboxFor, passwordLinkFor } from "./support/outbox"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const MANAGERS_ONLY = (role: string) => roleRequired(["owner", "admin"], role)

const idsOf = (profiles: ReadonlyArray<{ id: string }>) => profiles.map((p) => p.id)
const namesOf = (profiles: ReadonlyArray<{ fullName: string }>) => profiles.map((p) => p.fullName)

describe("POST /api/profiles/create", () => {
  it("invites an existing account, which becomes a member once it accepts (issue 10)", async () => {
    const { owner, community } = await newCommunity(api)
    const person = await registerUnverified(api, "Rita Registrada")
    const reply = await api.post("/api/profiles/create", { email: person.email }, as(owner, community))
    const data = expectCreated(reply, communityMessages.profileCreated.pt)
    expect(data).toMatchObject({
      communityId: community.id,
      accountId: person.id,
      email: person.email,
      fullName: "Rita Registrada",
      role: "member",
      status: "invited",
      phone: null,
      bio: null,
      avatarUrl: null,
      tags: []
    })
    expect((await outboxFor(roda, person.email)).map((m) => m.kind)).toEqual(["verify-email", "invitation"])
    expect(expectOk(await api.get("/api/communities/my", { token: person.token }))).toEqual([])

    expectOk(await api.post(`/api/profiles/${data.id}/accept`, undefined, as(person, community)))
    const mine = expectOk(await api.get("/api/communities/my", { token: person.token }))
    expect(mine).toEqual([expect.objectContaining({ id: community.id, role: "member", profileId: data.id })])
  })

  it("gives the role asked for and the full name given, matching the e-mail in any case", async () => {
    const { owner, community } = await newCommunity(api)
    const person = await register(api, "Nome da Conta")
    const data = expectCreated(
      await api.post("/api/profiles/create", {
        email: ` ${person.email.toUpperCase()} `,
        role: "moderator",
        fullName: "Nome no Perfil"
      }, as(owner, community))
    )
    expect(data).toMatchObject({
      accountId: person.id,
      role: "moderator",
      fullName: "Nome no Perfil",
      email: person.email
    })
  })

  it("creates the account for a new e-mail, which sets its password from the invite link and signs in", async () => {
    const { owner, community } = await newCommunity(api, "Clube Novo")
    const email = uniqueEmail("nova")
    const data = expectCreated(
      await api.post("/api/profiles/create", { email, fullName: "Nina Nova" }, as(owner, community))
    )
    expect(data).toMatchObject({ email, fullName: "Nina Nova", role: "member" })
    expect(data.accountId).toMatch(UUID)

    const link = await passwordLinkFor(roda, email)
    expect(link.mail).toMatchObject({ kind: "invite", communityId: community.id, recipient: email })
    expect(link.url.startsWith("http://roda.test/set-password?")).toBe(true)
    expect(link.id).toBe(data.accountId)

    expectError(await api.post("/api/auth/login", { email, password: PASSWORD }), 401)
    expectError(
      await api.post("/api/auth/set-password", { id: link.id, token: "wrong-token", password: PASSWORD }),
      400
    )
    expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }))
    expectError(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }), 410)

    const login = expectOk(await api.post("/api/auth/login", { email, password: PASSWORD }))
    expect(login.member).toMatchObject({ id: data.accountId, email })
    const mine = expectOk(await api.get("/api/profiles/my", { token: login.token }))
    expect(mine).toEqual([
      expect.objectContaining({ id: data.id, community: expect.objectContaining({ id: community.id }) })
    ])
  })

  it("names a new account after its e-mail when no full name is given", async () => {
    const { owner, community } = await newCommunity(api)
    const local = `sem.nome.${uniqueTag()}`
    const data = expectCreated(
      await api.post("/api/profiles/create", { email: `${local}@roda.test` }, as(owner, community))
    )
    expect(data.fullName).toBe(local)
  })

  it("answers 409 for someone who is already a member, and creates nothing", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const again = await api.post("/api/profiles/create", { email: member.email, role: "admin" }, as(owner, community))
    expectError(again, 409, communityMessages.alreadyMember.pt)
    expectError(
      await api.post("/api/profiles/create", { email: owner.email }, as(owner, community)),
      409,
      communityMessages.alreadyMember.pt
    )
    const list = expectOk(await api.get(`/api/profiles/list?role=member`, as(owner, community)))
    expect(list).toEqual([expect.objectContaining({ id: member.profileId, role: "member" })])
  })

  it("adds a person once when the same request arrives several times at once (409, never 5xx)", async () => {
    const { owner, community } = await newCommunity(api)
    const emails: Array<string> = []
    for (let round = 0; round < 3; round++) {
      const existing = await register(api)
      const replies = await Promise.all(
        [1, 2, 3].map(() => api.post("/api/profiles/create", { email: existing.email }, as(owner, community)))
      )
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409])
      for (const reply of replies) {
        if (reply.status === 409) {
          expect([communityMessages.alreadyMember.pt, communityMessages.alreadyInvited.pt]).toContain(
            reply.body.message
          )
        }
      }
      const invited = replies.find((r) => r.status === 201)!.body.data
      expect(invited.status).toBe("invited")
      expectOk(await api.post(`/api/profiles/${invited.id}/accept`, undefined, as(existing, community)))
      emails.push(existing.email)
    }
    const fresh = uniqueEmail("duplo")
    const replies = await Promise.all(
      [1, 2, 3].map(() => api.post("/api/profiles/create", { email: fresh }, as(owner, community)))
    )
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409])
    emails.push(fresh)

    const list = expectOk(await api.get("/api/profiles/list?role=member", as(owner, community)))
    expect(list.map((p: { email: string }) => p.email).sort()).toEqual(emails.sort())
  })

  it("requires communityId in the body, when sent, to equal the header", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const person = await register(api)
    const mismatch = await api.post(
      "/api/profiles/create",
      { email: person.email, communityId: b.community.id },
      as(a.owner, a.community)
    )
    const body = expectInvalid(mismatch, "communityId")
    expect(body.message).toBe(Messages.communityMismatch.pt)
    expectInvalid(
      await api.post("/api/profiles/create", { email: person.email, communityId: "nope" }, as(a.owner, a.community)),
      "communityId"
    )
    expect(expectOk(await api.get("/api/communities/my", { token: person.token }))).toEqual([])

    const same = await api.post("/api/profiles/create", {
      email: person.email,
      communityId: a.community.id.toUpperCase()
    }, as(a.owner, a.community))
    expect(expectCreated(same).communityId).toBe(a.community.id)
  })

  it("lets an owner add owners and admins, an admin only lower roles", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const admin = await addMember("admin")
    const candidates = await Promise.all([1, 2, 3, 4, 5].map(() => register(api)))
    const [p1, p2, p3, p4, p5] = candidates as [
      typeof candidates[0],
      typeof candidates[0],
      typeof candidates[0],
      typeof candidates[0],
      typeof candidates[0]
    ]

    expectError(
      await api.post("/api/profiles/create", { email: p1.email, role: "owner" }, as(admin, community)),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )
    expectError(
      await api.post("/api/profiles/create", { email: p1.email, role: "admin" }, as(admin, community)),
      403,
      communityMessages.adminsManageLowerRoles.pt
    )
    expectError(
      await api.post("/api/profiles/invite", { email: p1.email, role: "admin" }, as(admin, community)),
      403,
      communityMessages.adminsManageLowerRoles.pt
    )
    expect(expectOk(await api.get("/api/communities/my", { token: p1.token }))).toEqual([])

    expect(
      expectCreated(
        await api.post("/api/profiles/create", { email: p1.email, role: "moderator" }, as(admin, community))
      ).role
    ).toBe("moderator")
    expect(
      expectCreated(await api.post("/api/profiles/create", { email: p2.email, role: "finance" }, as(admin, community)))
        .role
    ).toBe("finance")
    expect(expectCreated(await api.post("/api/profiles/create", { email: p3.email }, as(admin, community))).role).toBe(
      "member"
    )
    expect(
      expectCreated(await api.post("/api/profiles/create", { email: p4.email, role: "owner" }, as(owner, community)))
        .role
    ).toBe("owner")
    expect(
      expectCreated(await api.post("/api/profiles/create", { email: p5.email, role: "admin" }, as(owner, community)))
        .role
    ).toBe("admin")
  })

  it("is for owners and admins", async () => {
    const { community, addMember } = await newCommunity(api)
    const person = await register(api)
    for (const role of ["moderator", "member", "finance"]) {
      const user = await addMember(role)
      expectError(
        await api.post("/api/profiles/create", { email: person.email }, as(user, community)),
        403,
        MANAGERS_ONLY(role)
      )
      expectError(
        await api.post("/api/profiles/invite", { email: person.email }, as(user, community)),
        403,
        MANAGERS_ONLY(role)
      )
    }
    const outsider = await register(api)
    expectError(
      await api.post("/api/profiles/create", { email: person.email }, as(outsider, community)),
      403,
      NOT_MEMBER
    )
    expectError(
      await api.post("/api/profiles/create", { email: person.email }, { community: community.id }),
      401,
      "Authentication token is required"
    )
    const noHeader = expectError(
      await api.post("/api/profiles/create", { email: person.email }, { token: outsider.token }),
      400
    )
    expect(noHeader.errors[0].param).toBe("X-CommunityId")
  })

  it("invites a removed member again into the same profile, which they accept", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member", "Vera Volta")
    expectOk(await api.put(`/api/profiles/${member.profileId}/tags`, { tags: ["antiga"] }, as(owner, community)))
    expectOk(await api.del(`/api/profiles/${member.profileId}`, as(owner, community)))
    expectError(await api.get("/api/profiles/list", as(member, community)), 403, NOT_MEMBER)

    const back = expectCreated(
      await api.post("/api/profiles/create", { email: member.email, role: "moderator" }, as(owner, community))
    )
    expect(back).toMatchObject({
      id: member.profileId,
      role: "moderator",
      accountId: member.id,
      tags: [],
      status: "invited"
    })
    expectError(await api.get("/api/profiles/list", as(member, community)), 403, NOT_MEMBER)
    expectOk(await api.post(`/api/profiles/${back.id}/accept`, undefined, as(member, community)))
    expectOk(await api.get("/api/profiles/list", as(member, community)))
    const mine = expectOk(await api.get("/api/communities/my", { token: member.token }))
    expect(mine).toEqual([
      expect.objectContaining({ id: community.id, profileId: member.profileId, role: "moderator" })
    ])
  })

  it("validates the body", async () => {
    const { owner, community } = await newCommunity(api)
    const auth = as(owner, community)
    expectInvalid(await api.post("/api/profiles/create", { email: "not-an-email" }, auth), "email")
    expectInvalid(await api.post("/api/profiles/create", {}, auth), "email")
    expectInvalid(await api.post("/api/profiles/create", { email: uniqueEmail(), role: "boss" }, auth), "role")
    expectInvalid(await api.post("/api/profiles/create", { email: uniqueEmail(), fullName: "" }, auth), "fullName")
    expectInvalid(await api.post("/api/profiles/create", { email: 5 }, auth), "email")
    expectError(
      await api.call("POST", "/api/profiles/create", { raw: "email=x", ...auth }),
      400,
      Messages.invalidJson.pt
    )
    expectError(await api.post("/api/profiles/create", ["x"], auth), 400)
  })
})

describe("POST /api/profiles/invite", () => {
  it("e-mails an existing account an invitation to accept, without a set-password link", async () => {
    const { owner, community } = await newCommunity(api, "Clube Convite")
    const person = await registerUnverified(api, "Ivo Convidado")
    const data = expectCreated(
      await api.post("/api/profiles/invite", { email: person.email, role: "moderator" }, as(owner, community)),
      communityMessages.profileInvited.pt
    )
    expect(data).toMatchObject({
      accountId: person.id,
      role: "moderator",
      communityId: community.id,
      status: "invited"
    })

    const mails = (await outboxFor(roda, person.email)).filter((mail) => mail.kind !== "verify-email")
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ kind: "invitation", communityId: community.id })
    expect(mails[0]!.subject).toContain("Clube Convite")
    expect(mails[0]!.body).not.toContain("set-password")
    expectOk(await api.post(`/api/profiles/${data.id}/accept`, undefined, as(person, community)))
  })

  it("creates the account for a new e-mail and sends one invite", async () => {
    const { owner, community } = await newCommunity(api)
    const email = uniqueEmail("convite")
    const data = expectCreated(await api.post("/api/profiles/invite", { email }, as(owner, community)))
    expect(data).toMatchObject({ email, role: "member" })
    const mails = await outboxFor(roda, email)
    expect(mails.map((m) => m.kind)).toEqual(["invite"])
    const link = await passwordLinkFor(roda, email)
    expect(link.id).toBe(data.accountId)
    expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }))
    const login = expectOk(await api.post("/api/auth/login", { email, password: PASSWORD }))
    expectOk(await api.get("/api/profiles/list", { token: login.token, community: community.id }))
  })

  it("answers 409 for a member, and sends nothing", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    expectError(
      await api.post("/api/profiles/invite", { email: member.email }, as(owner, community)),
      409,
      communityMessages.alreadyMember.pt
    )
    // only the invitation that made them a member (after the sign-up's confirmation)
    expect((await outboxFor(roda, member.email)).map((m) => m.kind)).toEqual(["verify-email", "invitation"])
  })

  it("lets an admin invite, and checks communityId", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const admin = await a.addMember("admin")
    const email = uniqueEmail()
    expectInvalid(
      await api.post("/api/profiles/invite", { email, communityId: b.community.id }, as(admin, a.community)),
      "communityId"
    )
    expect(await outboxFor(roda, email)).toEqual([])
    expectCreated(
      await api.post("/api/profiles/invite", { email, communityId: a.community.id }, as(admin, a.community))
    )
    expect((await outboxFor(roda, email)).map((m) => m.kind)).toEqual(["invite"])
  })
})

describe("GET /api/profiles/my", () => {
  it("lists one profile per community without X-CommunityId", async () => {
    const a = await newCommunity(api, "Primeira")
    const b = await newCommunity(api, "Segunda")
    const c = await newCommunity(api, "Terceira")
    const person = await a.addMember("moderator", "Marta Muitas")
    const inB = expectCreated(
      await api.post("/api/profiles/create", { email: person.email, fullName: "Marta em B" }, as(b.owner, b.community))
    )
    const inC = expectCreated(await api.post("/api/profiles/create", { email: person.email }, as(c.owner, c.community)))
    expectOk(await api.post(`/api/profiles/${inC.id}/decline`, undefined, as(person, c.community)))

    const reply = await api.get("/api/profiles/my", { token: person.token })
    const mine = expectOk(reply, 200, communityMessages.profiles.pt)
    expect(mine).toHaveLength(2)
    const byCommunity = Object.fromEntries(mine.map((p: any) => [p.communityId, p]))
    expect(byCommunity[a.community.id]).toMatchObject({
      id: person.profileId,
      role: "moderator",
      fullName: "Marta Muitas",
      accountId: person.id,
      status: "active",
      community: { id: a.community.id, slug: a.community.slug }
    })
    // an open invitation is listed too, as such
    expect(byCommunity[b.community.id]).toMatchObject({
      id: inB.id,
      role: "member",
      fullName: "Marta em B",
      status: "invited"
    })
    expect(byCommunity[a.community.id].community.name).toMatch(/^Primeira /)
  })

  it("is empty without communities and needs a token", async () => {
    const user = await register(api)
    expect(expectOk(await api.get("/api/profiles/my", { token: user.token }))).toEqual([])
    expectError(await api.get("/api/profiles/my"), 401, "Authentication token is required")
  })
})

describe("GET /api/profiles/autocomplete", () => {
  const setup = async () => {
    const tag = uniqueTag()
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const ana = await a.addMember("member", "Ana Beatriz Souza")
    const carla = await a.addMember("member", "Carla Anaya")
    const renata = await a.addMember("member", "Renata Lima")
    const zeca = await register(api, "José Carlos", `zeca.${tag}@roda.test`)
    const invited = expectCreated(
      await api.post("/api/profiles/create", { email: zeca.email }, as(a.owner, a.community))
    )
    expectOk(await api.post(`/api/profiles/${invited.id}/accept`, undefined, as(zeca, a.community)))
    await b.addMember("member", "Ana de Outra Comunidade")
    return { a, b, ana, carla, renata, zeca, tag }
  }

  it("matches the start of any word of the name, or (for staff) of the e-mail", async () => {
    const { a, ana, carla, zeca, tag } = await setup()
    const searchAs = (user: { token: string }) => async (q: string) =>
      expectOk(
        await api.get(`/api/profiles/autocomplete?q=${encodeURIComponent(q)}`, as(user, a.community)),
        200,
        communityMessages.profiles.pt
      )
    const search = searchAs(a.owner)
    expect(await searchAs(ana)(`zeca.${tag}`)).toEqual([])
    expect(namesOf(await searchAs(ana)("ana"))).toEqual(["Ana Beatriz Souza", "Carla Anaya"])

    expect(namesOf(await search("ana"))).toEqual(["Ana Beatriz Souza", "Carla Anaya"])
    expect(namesOf(await search("ANA"))).toEqual(["Ana Beatriz Souza", "Carla Anaya"])
    expect(namesOf(await search("sou"))).toEqual(["Ana Beatriz Souza"])
    expect(await search("nata")).toEqual([])
    expect(namesOf(await search(`zeca.${tag}`))).toEqual(["José Carlos"])
    expect(idsOf(await search(carla.email.slice(0, 12)))).toContain(carla.profileId)
    expect((await search(`zeca.${tag}`))[0]).toMatchObject({ email: zeca.email, communityId: a.community.id })
  })

  it("never shows people of another community", async () => {
    const { a, b, ana } = await setup()
    const fromA = expectOk(await api.get("/api/profiles/autocomplete?q=ana", as(ana, a.community)))
    expect(fromA.every((p: { communityId: string }) => p.communityId === a.community.id)).toBe(true)
    expect(namesOf(fromA)).not.toContain("Ana de Outra Comunidade")
    const fromB = expectOk(await api.get("/api/profiles/autocomplete?q=ana", as(b.owner, b.community)))
    expect(namesOf(fromB)).toEqual(["Ana de Outra Comunidade"])
  })

  it("honours limit, treats % and _ literally, and skips removed members", async () => {
    const { a, ana, renata } = await setup()
    const auth = as(a.owner, a.community)
    expect(expectOk(await api.get("/api/profiles/autocomplete?q=a&limit=1", auth))).toHaveLength(1)
    expect(expectOk(await api.get(`/api/profiles/autocomplete?q=${encodeURIComponent("%")}`, auth))).toEqual([])
    expect(expectOk(await api.get("/api/profiles/autocomplete?q=_", auth))).toEqual([])
    expect(expectOk(await api.get("/api/profiles/autocomplete?q=%20%20", auth))).toEqual([])

    expectOk(await api.del(`/api/profiles/${renata.profileId}`, auth))
    expect(expectOk(await api.get("/api/profiles/autocomplete?q=renata", as(ana, a.community)))).toEqual([])
  })

  it("validates q and limit as query parameters", async () => {
    const { owner, community } = await newCommunity(api)
    const auth = as(owner, community)
    expectInvalid(await api.get("/api/profiles/autocomplete", auth), "q", "query")
    expectInvalid(await api.get(`/api/profiles/autocomplete?q=${"a".repeat(101)}`, auth), "q", "query")
    for (const limit of ["0", "21", "x"]) {
      expectInvalid(await api.get(`/api/profiles/autocomplete?q=a&limit=${limit}`, auth), "limit", "query")
    }
    expectError(await api.get("/api/profiles/autocomplete?q=a", { token: owner.token }), 400)
  })
})

describe("GET /api/profiles/list", () => {
  it("filters by role, tag and search, and pages", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const auth = as(owner, community)
    const mods = [await addMember("moderator", "Mod Um"), await addMember("moderator", "Mod Dois")]
    const members = [
      await addMember("member", "Membro Alfa"),
      await addMember("member", "Membro Beta"),
      await addMember("member", "Membro Gama")
    ]
    expectOk(await api.put(`/api/profiles/${members[0]!.profileId}/tags`, { tags: ["vip", "sp"] }, auth))
    expectOk(await api.put(`/api/profiles/${mods[1]!.profileId}/tags`, { tags: ["vip"] }, auth))

    const all = await api.get("/api/profiles/list", auth)
    expect(expectOk(all, 200, communityMessages.profiles.pt)).toHaveLength(6)
    expect(all.body.pagination).toEqual({ limit: 20, nextCursor: null })

    expect(idsOf(expectOk(await api.get("/api/profiles/list?role=moderator", auth))).sort()).toEqual(
      mods.map((m) => m.profileId).sort()
    )
    expect(idsOf(expectOk(await api.get("/api/profiles/list?role=owner", auth)))).toEqual([owner.profileId])
    expect(expectOk(await api.get("/api/profiles/list?role=finance", auth))).toEqual([])
    expect(namesOf(expectOk(await api.get("/api/profiles/list?tag=vip", auth))).sort()).toEqual([
      "Membro Alfa",
      "Mod Dois"
    ])
    expect(namesOf(expectOk(await api.get("/api/profiles/list?tag=vip&role=member", auth)))).toEqual(["Membro Alfa"])
    expect(expectOk(await api.get("/api/profiles/list?tag=nenhuma", auth))).toEqual([])
    expect(namesOf(expectOk(await api.get("/api/profiles/list?search=bro%20b", auth)))).toEqual(["Membro Beta"])
    expect(namesOf(expectOk(await api.get("/api/profiles/list?search=MEMBRO", auth))).sort()).toEqual([
      "Membro Alfa",
      "Membro Beta",
      "Membro Gama"
    ])
    expect(idsOf(expectOk(await api.get(`/api/profiles/list?search=${encodeURIComponent(members[2]!.email)}`, auth))))
      .toEqual([members[2]!.profileId])
    expect(expectOk(await api.get(`/api/profiles/list?search=${encodeURIComponent("%")}`, auth))).toEqual([])

    const pages: Array<Array<string>> = []
    let cursor: string | null = null
    do {
      const reply: any = await api.get(
        `/api/profiles/list?role=member&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        auth
      )
      pages.push(idsOf(expectOk(reply)))
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null && pages.length < 5)
    expect(pages.map((p) => p.length)).toEqual([2, 1])
    expect(pages.flat().sort()).toEqual(members.map((m) => m.profileId).sort())
  })

  it("shows only this community's profiles, to any member", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const member = await a.addMember("member")
    await b.addMember("member")
    const data = expectOk(await api.get("/api/profiles/list", as(member, a.community)))
    expect(data).toHaveLength(2)
    expect(data.every((p: { communityId: string }) => p.communityId === a.community.id)).toBe(true)
  })

  it("validates its query", async () => {
    const { owner, community } = await newCommunity(api)
    const auth = as(owner, community)
    expectInvalid(await api.get("/api/profiles/list?role=boss", auth), "role", "query")
    expectInvalid(await api.get("/api/profiles/list?limit=0", auth), "limit", "query")
    expectInvalid(await api.get("/api/profiles/list?limit=101", auth), "limit", "query")
    expectInvalid(await api.get("/api/profiles/list?cursor=***", auth), "cursor", "query")
    expectInvalid(await api.get(`/api/profiles/list?tag=${"t".repeat(51)}`, auth), "tag", "query")
  })
})

describe("PUT /api/profiles/{id}", () => {
  it("lets the holder edit their own profile", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const reply = await api.put(`/api/profiles/${member.profileId}`, {
      fullName: "  Novo Nome  ",
      bio: "Gosto de livros",
      avatarUrl: "https://cdn.example.com/a.png",
      phone: "+55 11 91234-5678"
    }, as(member, community))
    const data = expectOk(reply, 200, communityMessages.profileUpdated.pt)
    expect(data).toMatchObject({
      id: member.profileId,
      fullName: "Novo Nome",
      bio: "Gosto de livros",
      avatarUrl: "https://cdn.example.com/a.png",
      phone: "+55 11 91234-5678",
      role: "member"
    })
    const cleared = expectOk(
      await api.put(`/api/profiles/${member.profileId}`, { bio: null, avatarUrl: null }, as(member, community))
    )
    expect(cleared).toMatchObject({ fullName: "Novo Nome", bio: null, avatarUrl: null, phone: "+55 11 91234-5678" })
    const unchanged = expectOk(await api.put(`/api/profiles/${member.profileId}`, {}, as(member, community)))
    expect(unchanged.fullName).toBe("Novo Nome")
  })

  it("lets owners and admins edit others; an admin not an owner; a member nobody else", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const admin = await addMember("admin")
    const moderator = await addMember("moderator")
    const member = await addMember("member")
    const other = await addMember("member")

    expect(
      expectOk(await api.put(`/api/profiles/${member.profileId}`, { bio: "pelo owner" }, as(owner, community))).bio
    ).toBe("pelo owner")
    expect(
      expectOk(await api.put(`/api/profiles/${member.profileId}`, { bio: "pelo admin" }, as(admin, community))).bio
    ).toBe("pelo admin")
    expectError(
      await api.put(`/api/profiles/${other.profileId}`, { bio: "x" }, as(member, community)),
      403,
      MANAGERS_ONLY("member")
    )
    expectError(
      await api.put(`/api/profiles/${other.profileId}`, { bio: "x" }, as(moderator, community)),
      403,
      MANAGERS_ONLY("moderator")
    )
    expectError(
      await api.put(`/api/profiles/${owner.profileId}`, { bio: "x" }, as(admin, community)),
      403,
      roleRequired(["owner"], "admin")
    )
    expectOk(await api.put(`/api/profiles/${admin.profileId}`, { bio: "pelo owner" }, as(owner, community)))

    const list = expectOk(await api.get(`/api/profiles/list`, as(owner, community)))
    expect(list.find((p: { id: string }) => p.id === other.profileId).bio).toBeNull()
    expect(list.find((p: { id: string }) => p.id === owner.profileId).bio).toBeNull()
  })

  it("answers 404 for another community's profile and 400 for a malformed id or body", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const inB = await b.addMember("member")
    expectError(
      await api.put(`/api/profiles/${inB.profileId}`, { bio: "x" }, as(a.owner, a.community)),
      404,
      communityMessages.profileNotFound.pt
    )
    expectError(await api.put(`/api/profiles/${unknownId()}`, { bio: "x" }, as(a.owner, a.community)), 404)
    expectInvalid(await api.put("/api/profiles/42", { bio: "x" }, as(a.owner, a.community)), "id", "params")
    const own = `/api/profiles/${a.owner.profileId}`
    expectInvalid(await api.put(own, { avatarUrl: "ftp://x.example.com/a.png" }, as(a.owner, a.community)), "avatarUrl")
    expectInvalid(await api.put(own, { fullName: "" }, as(a.owner, a.community)), "fullName")
    expectInvalid(await api.put(own, { bio: "b".repeat(2001) }, as(a.owner, a.community)), "bio")
    expectInvalid(await api.put(own, { phone: "call me" }, as(a.owner, a.community)), "phone")
    expectError(await api.call("PUT", own, { raw: "[", ...as(a.owner, a.community) }), 400, Messages.invalidJson.pt)
  })
})

describe("PUT /api/profiles/{id}/phone", () => {
  it("sets and clears the phone of the holder", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const path = `/api/profiles/${member.profileId}/phone`
    const set = expectOk(
      await api.put(path, { phone: " +55 (11) 3456-7890 " }, as(member, community)),
      200,
      communityMessages.profileUpdated.pt
    )
    expect(set.phone).toBe("+55 (11) 3456-7890")
    expect(expectOk(await api.put(path, { phone: null }, as(member, community))).phone).toBeNull()
  })

  it("follows the same rules as editing the profile", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const admin = await a.addMember("admin")
    const member = await a.addMember("member")
    const other = await a.addMember("member")
    const inB = await b.addMember("member")
    expect(
      expectOk(
        await api.put(`/api/profiles/${member.profileId}/phone`, { phone: "11 99999-0000" }, as(admin, a.community))
      ).phone
    ).toBe("11 99999-0000")
    expectError(
      await api.put(`/api/profiles/${other.profileId}/phone`, { phone: "11 99999-0000" }, as(member, a.community)),
      403,
      MANAGERS_ONLY("member")
    )
    expectError(
      await api.put(`/api/profiles/${inB.profileId}/phone`, { phone: "11 99999-0000" }, as(a.owner, a.community)),
      404
    )
    expectInvalid(
      await api.put(`/api/profiles/${member.profileId}/phone`, { phone: "abc" }, as(member, a.community)),
      "phone"
    )
    expectInvalid(
      await api.put(`/api/profiles/${member.profileId}/phone`, { phone: 11999990000 }, as(member, a.community)),
      "phone"
    )
    expectInvalid(await api.put(`/api/profiles/${member.profileId}/phone`, {}, as(member, a.community)), "phone")
    expectInvalid(await api.put("/api/profiles/x/phone", { phone: null }, as(member, a.community)), "id", "params")
  })
})

describe("PUT /api/profiles/{id}/email", () => {
  /** The confirm-email link of the newest e-mail-change e-mail sent to `recipient`. */
  const confirmation = async (recipient: string) => {
    const mails = (await outboxFor(roda, recipient)).filter((mail) => mail.kind === "email-change")
    const url = new URL(/https?:\/\/\S+\/confirm-email\?\S+/.exec(mails[mails.length - 1]!.body)![0])
    return { id: url.searchParams.get("id")!, token: url.searchParams.get("token")! }
  }

  it("lets the holder change their login e-mail, once the new address is confirmed", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const email = uniqueEmail("trocado")
    const data = expectOk(
      await api.put(`/api/profiles/${member.profileId}/email`, {
        currentPassword: PASSWORD,
        email: email.toUpperCase()
      }, as(member, community)),
      202,
      communityMessages.emailChangePending.pt
    )
    expect(data).toMatchObject({ email: member.email, pendingEmail: email })
    expectOk(await api.post("/api/auth/confirm-email", await confirmation(email)))
    expectOk(await api.post("/api/auth/login", { email, password: PASSWORD }))
    expectError(await api.post("/api/auth/login", { email: member.email, password: PASSWORD }), 401)
  })

  it("never lets an owner or admin change someone else's login (issue 10)", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const admin = await addMember("admin")
    const member = await addMember("member")
    for (const actor of [owner, admin]) {
      expectError(
        await api.put(
          `/api/profiles/${member.profileId}/email`,
          { currentPassword: PASSWORD, email: uniqueEmail() },
          as(actor, community)
        ),
        403,
        communityMessages.emailOnlyByHolder.pt
      )
    }
    expectOk(await api.post("/api/auth/login", { email: member.email, password: PASSWORD }))
  })

  it("answers 409 when the e-mail belongs to another account; the same address is a no-op", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const someone = await register(api)
    for (const email of [someone.email, someone.email.toUpperCase()]) {
      expectError(
        await api.put(
          `/api/profiles/${member.profileId}/email`,
          { currentPassword: PASSWORD, email },
          as(member, community)
        ),
        409,
        identityMessages.emailTaken.pt
      )
    }
    const same = expectOk(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: member.email },
        as(member, community)
      ),
      202
    )
    expect(same).toMatchObject({ email: member.email, pendingEmail: null })
  })

  it("refuses members and other communities' profiles, and validates", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const member = await a.addMember("member")
    const other = await a.addMember("member")
    const inB = await b.addMember("member")
    expectError(
      await api.put(
        `/api/profiles/${other.profileId}/email`,
        { currentPassword: PASSWORD, email: uniqueEmail() },
        as(member, a.community)
      ),
      403,
      communityMessages.emailOnlyByHolder.pt
    )
    expectError(
      await api.put(
        `/api/profiles/${inB.profileId}/email`,
        { currentPassword: PASSWORD, email: uniqueEmail() },
        as(a.owner, a.community)
      ),
      404,
      communityMessages.profileNotFound.pt
    )
    expectInvalid(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: "nope" },
        as(member, a.community)
      ),
      "email"
    )
    expectInvalid(
      await api.put("/api/profiles/nope/email", { email: uniqueEmail() }, as(member, a.community)),
      "id",
      "params"
    )
    expectOk(await api.post("/api/auth/login", { email: other.email, password: PASSWORD }))
  })
})

describe("DELETE /api/profiles/{id}", () => {
  it("lets an owner remove a member, who then loses access", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const removed = await api.del(`/api/profiles/${member.profileId}`, as(owner, community))
    expect(expectOk(removed, 200, communityMessages.profileRemoved.pt)).toBeNull()

    expectError(await api.get("/api/profiles/list", as(member, community)), 403, NOT_MEMBER)
    expectError(await api.get(`/api/communities/${community.id}/members`, as(member, community)), 403, NOT_MEMBER)
    expect(expectOk(await api.get("/api/communities/my", { token: member.token }))).toEqual([])
    expect(expectOk(await api.get("/api/profiles/my", { token: member.token }))).toEqual([])
    expect(idsOf(expectOk(await api.get("/api/profiles/list", as(owner, community))))).toEqual([owner.profileId])
    expectError(
      await api.del(`/api/profiles/${member.profileId}`, as(owner, community)),
      404,
      communityMessages.profileNotFound.pt
    )
    expectError(await api.put(`/api/profiles/${member.profileId}`, { bio: "x" }, as(owner, community)), 404)
  })

  it("lets a member leave", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    expectOk(await api.del(`/api/profiles/${member.profileId}`, as(member, community)))
    expectError(await api.get("/api/profiles/tags", as(member, community)), 403, NOT_MEMBER)
    expect(idsOf(expectOk(await api.get("/api/profiles/list", as(owner, community))))).toEqual([owner.profileId])
  })

  it("lets an admin remove lower roles only", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const admin = await addMember("admin")
    const otherAdmin = await addMember("admin")
    const moderator = await addMember("moderator")
    const finance = await addMember("finance")
    expectOk(await api.del(`/api/profiles/${moderator.profileId}`, as(admin, community)))
    expectOk(await api.del(`/api/profiles/${finance.profileId}`, as(admin, community)))
    expectError(
      await api.del(`/api/profiles/${otherAdmin.profileId}`, as(admin, community)),
      403,
      communityMessages.adminsManageLowerRoles.pt
    )
    expectError(
      await api.del(`/api/profiles/${owner.profileId}`, as(admin, community)),
      403,
      communityMessages.onlyOwnerManagesOwners.pt
    )
    expectOk(await api.del(`/api/profiles/${otherAdmin.profileId}`, as(owner, community)))
  })

  it("refuses members and moderators removing others", async () => {
    const { community, addMember } = await newCommunity(api)
    const moderator = await addMember("moderator")
    const member = await addMember("member")
    const other = await addMember("member")
    expectError(await api.del(`/api/profiles/${other.profileId}`, as(member, community)), 403, MANAGERS_ONLY("member"))
    expectError(
      await api.del(`/api/profiles/${other.profileId}`, as(moderator, community)),
      403,
      MANAGERS_ONLY("moderator")
    )
    expectOk(await api.get("/api/profiles/list", as(other, community)))
  })

  it("keeps the last owner: the only owner cannot leave, one of two can", async () => {
    const { owner, community } = await newCommunity(api)
    expectError(
      await api.del(`/api/profiles/${owner.profileId}`, as(owner, community)),
      409,
      communityMessages.lastOwner.pt
    )
    expectOk(await api.get("/api/profiles/list", as(owner, community)))

    const second = await register(api)
    const secondProfile = expectCreated(
      await api.post("/api/profiles/create", { email: second.email, role: "owner" }, as(owner, community))
    )
    // an invited owner is no owner yet
    expectError(
      await api.del(`/api/profiles/${owner.profileId}`, as(owner, community)),
      409,
      communityMessages.lastOwner.pt
    )
    expectOk(await api.post(`/api/profiles/${secondProfile.id}/accept`, undefined, as(second, community)))
    expectOk(await api.del(`/api/profiles/${owner.profileId}`, as(owner, community)))
    expectError(
      await api.del(`/api/profiles/${secondProfile.id}`, as(second, community)),
      409,
      communityMessages.lastOwner.pt
    )
    expect(idsOf(expectOk(await api.get("/api/profiles/list?role=owner", as(second, community))))).toEqual([
      secondProfile.id
    ])
  })

  it("answers 404 for another community's profile and 400 for a malformed id", async () => {
    const a = await newCommunity(api)
    const b = await newCommunity(api)
    const inB = await b.addMember("member")
    expectError(
      await api.del(`/api/profiles/${inB.profileId}`, as(a.owner, a.community)),
      404,
      communityMessages.profileNotFound.pt
    )
    expectOk(await api.get("/api/profiles/list", as(inB, b.community)))
    expectInvalid(await api.del("/api/profiles/not-an-id", as(a.owner, a.community)), "id", "params")
  })
})
