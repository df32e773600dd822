import { Effect, Exit, Option } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Member } from "../../src/domain/Caller"
import { CommunityId, ProfileId } from "../../src/domain/Ids"
import type { Role } from "../../src/domain/Role"
import { Access, type Viewer, viewerOfMember } from "../../src/index"
import { accountOf } from "../support/auth"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectError, expectOk } from "../support/envelope"
import { type CallOptions, client, register, startRoda, type TestUser } from "../support/harness"
import { createSection, createSpace, entitle, setGrants } from "../support/structure"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = TestUser & { profileId: string }
let setup: TestCommunity
const people = {} as Record<"moderator" | "member" | "entitled" | "expired" | "finance", Person>
let stranger: TestUser
const spaces = {} as Record<
  "pubOpen" | "pubGated" | "pubPrivate" | "privSpace" | "secretGranted" | "secretNoGrant" | "secretInSecret",
  string
>
const sections = {} as Record<"pub" | "priv" | "sec" | "emptySecret", string>
const plan = randomUUID()
const product = randomUUID()

beforeAll(async () => {
  setup = await newCommunity(api, "Acesso")
  for (const role of ["moderator", "member", "entitled", "expired", "finance"] as const) {
    people[role] = await setup.addMember(role === "entitled" || role === "expired" ? "member" : role)
  }
  stranger = await register(api, "Sem Vínculo")
  sections.pub = (await createSection(api, setup, { title: "Pública", visibility: "public" })).id
  sections.priv = (await createSection(api, setup, { title: "Privada", visibility: "private" })).id
  sections.sec = (await createSection(api, setup, { title: "Secreta", visibility: "secret" })).id
  sections.emptySecret = (await createSection(api, setup, { title: "Vazia", visibility: "secret" })).id
  const space = async (section: string, visibility: string) =>
    (await createSpace(api, setup, section, { visibility })).id
  spaces.pubOpen = await space(sections.pub, "public")
  spaces.pubGated = await space(sections.pub, "public")
  spaces.pubPrivate = await space(sections.pub, "private")
  spaces.privSpace = await space(sections.priv, "private")
  spaces.secretGranted = await space(sections.pub, "secret")
  spaces.secretNoGrant = await space(sections.priv, "secret")
  spaces.secretInSecret = await space(sections.sec, "secret")
  await setGrants(roda, spaces.pubGated, { plans: [plan] })
  await setGrants(roda, spaces.secretGranted, { products: [product] })
  await setGrants(roda, spaces.secretInSecret, { plans: [plan], products: [randomUUID()] })
  const id = setup.community.id
  await entitle(roda, id, people.entitled.profileId, { type: "plan", id: plan })
  await entitle(roda, id, people.entitled.profileId, {
    type: "product",
    id: product,
    validUntil: new Date("2999-01-01")
  })
  await entitle(roda, id, people.expired.profileId, { type: "plan", id: plan, validUntil: new Date("2001-01-01") })
  await entitle(roda, id, people.expired.profileId, {
    type: "product",
    id: product,
    validUntil: new Date("2001-01-01")
  })
  // the same source ids as the other kind of grant open nothing
  await entitle(roda, id, people.member.profileId, { type: "product", id: plan })
})

type Kind = "anonymous" | "stranger" | "member" | "finance" | "expired" | "entitled" | "moderator" | "owner"

const callAs = (kind: Kind): CallOptions => {
  const community = setup.community
  switch (kind) {
    case "anonymous":
      return { community: community.id }
    case "stranger":
      return as(stranger, community)
    case "owner":
      return as(setup.owner, community)
    default:
      return as(people[kind], community)
  }
}

const viewerOf = (kind: Kind): Viewer => {
  if (kind === "anonymous" || kind === "stranger") {
    return { communityId: CommunityId.make(setup.community.id), member: Option.none() }
  }
  const person = kind === "owner" ? setup.owner : people[kind]
  const role: Role = kind === "owner"
    ? "owner"
    : kind === "moderator"
    ? "moderator"
    : kind === "finance"
    ? "finance"
    : "member"
  const member: Member = {
    account: accountOf(person),
    communityId: CommunityId.make(setup.community.id),
    profileId: ProfileId.make(person.profileId),
    role,
    actingProfileId: ProfileId.make(person.profileId)
  }
  return viewerOfMember(member)
}

const all = () => Object.values(spaces)
const plainMember = () => ({
  visible: [spaces.pubOpen, spaces.pubGated, spaces.pubPrivate, spaces.privSpace],
  readable: [spaces.pubOpen, spaces.pubPrivate, spaces.privSpace],
  sections: [sections.pub, sections.priv]
})
const anonymous = () => ({
  visible: [spaces.pubOpen, spaces.pubGated],
  readable: [spaces.pubOpen],
  sections: [sections.pub]
})
const staff = () => ({ visible: all(), readable: all(), sections: Object.values(sections) })

const expected: Record<Kind, () => { visible: Array<string>; readable: Array<string>; sections: Array<string> }> = {
  anonymous,
  stranger: anonymous,
  member: plainMember,
  finance: plainMember,
  expired: plainMember,
  entitled: () => ({
    visible: [
      spaces.pubOpen,
      spaces.pubGated,
      spaces.pubPrivate,
      spaces.secretGranted,
      spaces.privSpace,
      spaces.secretInSecret
    ],
    readable: [
      spaces.pubOpen,
      spaces.pubGated,
      spaces.pubPrivate,
      spaces.secretGranted,
      spaces.privSpace,
      spaces.secretInSecret
    ],
    sections: [sections.pub, sections.priv, sections.sec]
  }),
  moderator: staff,
  owner: staff
}

const kinds = Object.keys(expected) as Array<Kind>
const sorted = (ids: ReadonlyArray<string>) => [...ids].sort()

const runAccess = <A>(f: (access: typeof Access.Service) => Effect.Effect<A, unknown>) =>
  roda.runtime.runPromiseExit(Effect.flatMap(Access, f))

describe("who sees which spaces and sections", () => {
  it.each(kinds)("lists what %s may see, and tells what they may read", async (kind) => {
    const want = expected[kind]()
    const listed = expectOk(await api.get("/api/spaces?limit=100", callAs(kind)))
    expect(sorted(listed.map((s: { id: string }) => s.id))).toEqual(sorted(want.visible))
    const readable = listed.filter((s: { canReadContent: boolean }) => s.canReadContent).map((s: { id: string }) =>
      s.id
    )
    expect(sorted(readable)).toEqual(sorted(want.readable))

    const listedSections = expectOk(await api.get("/api/sections?limit=100", callAs(kind)))
    expect(sorted(listedSections.map((s: { id: string }) => s.id))).toEqual(sorted(want.sections))
  })

  it.each(kinds)("shows a space or section to %s only when listed (404 otherwise)", async (kind) => {
    const want = expected[kind]()
    for (const id of all()) {
      const reply = await api.get(`/api/spaces/${id}`, callAs(kind))
      if (want.visible.includes(id)) {
        expect(expectOk(reply).canReadContent).toBe(want.readable.includes(id))
      } else {
        expectError(reply, 404, "Espaço não encontrado.")
      }
    }
    for (const id of Object.values(sections)) {
      const reply = await api.get(`/api/sections/${id}`, callAs(kind))
      if (want.sections.includes(id)) expectOk(reply)
      else expectError(reply, 404, "Seção não encontrada.")
    }
  })

  it("shows a space anonymously only once both it and its section are public", async () => {
    const community = await newCommunity(api)
    const owner = as(community.owner, community.community)
    const section = await createSection(api, community, { visibility: "private" })
    const space = await createSpace(api, community, section.id, { visibility: "private" })
    const anonymous = { community: community.community.id }
    expectError(await api.get(`/api/spaces/${space.id}`, anonymous), 404)
    expectOk(await api.put(`/api/sections/${section.id}`, { visibility: "public" }, owner))
    expectError(await api.get(`/api/spaces/${space.id}`, anonymous), 404)
    expectOk(await api.put(`/api/spaces/${space.id}`, { visibility: "public" }, owner))
    expect(expectOk(await api.get(`/api/spaces/${space.id}`, anonymous)).canReadContent).toBe(true)
  })
})

describe("the Access service", () => {
  it.each(kinds)("readableSpaceIds for %s matches what GET /api/spaces marks readable", async (kind) => {
    const exit = await runAccess((access) => access.readableSpaceIds(viewerOf(kind)))
    if (!Exit.isSuccess(exit)) throw new Error("readableSpaceIds failed")
    const listed = expectOk(await api.get("/api/spaces?limit=100", callAs(kind)))
    const readable = listed.filter((s: { canReadContent: boolean }) => s.canReadContent).map((s: { id: string }) =>
      s.id
    )
    expect(sorted(exit.value)).toEqual(sorted(readable))
    expect(sorted(exit.value)).toEqual(sorted(expected[kind]().readable))
  })

  it("answers space, readContent with 404 when hidden and 403 when gated", async () => {
    const member = viewerOf("member")
    const seen = await runAccess((access) => access.space(member, spaces.pubGated))
    expect(Exit.isSuccess(seen) && seen.value).toMatchObject({
      spaceId: spaces.pubGated,
      sectionId: sections.pub,
      module: "courses",
      visibility: "public",
      isStaff: false,
      canReadContent: false
    })
    const gated = await runAccess((access) => access.readContent(member, spaces.pubGated))
    expect(Exit.isFailure(gated) && JSON.stringify(gated.cause)).toContain("403")
    const hidden = await runAccess((access) => access.readContent(member, spaces.secretNoGrant))
    expect(Exit.isFailure(hidden) && JSON.stringify(hidden.cause)).toContain("404")
    const malformed = await runAccess((access) => access.space(member, "nope"))
    expect(Exit.isFailure(malformed) && JSON.stringify(malformed.cause)).toContain("404")

    const entitled = await runAccess((access) => access.readContent(viewerOf("entitled"), spaces.secretInSecret))
    expect(Exit.isSuccess(entitled)).toBe(true)
    const owner = await runAccess((access) => access.readContent(viewerOf("owner"), spaces.secretNoGrant))
    expect(Exit.isSuccess(owner) && owner.value.isStaff).toBe(true)
  })

  it("treats another community's space as not found, even for its staff", async () => {
    const other = await newCommunity(api)
    const foreign = await createSpace(api, other, (await createSection(api, other)).id)
    const exit = await runAccess((access) => access.space(viewerOf("owner"), foreign.id))
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("404")
    const ids = await runAccess((access) => access.readableSpaceIds(viewerOf("owner")))
    expect(Exit.isSuccess(ids) && ids.value).not.toContain(foreign.id)
  })
})
