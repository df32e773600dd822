import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Member } from "../../src/domain/Caller"
import { CommunityId, ProfileId } from "../../src/domain/Ids"
import { Comments } from "../../src/social/Comments"
import { Reactions } from "../../src/social/Reactions"
import { accountOf } from "../support/auth"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { failsReply, invalidReply, okReply, wireContract } from "../support/contractReplies"
import { expectError, expectInvalid, unknownId, UUID } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSection, createSpace, entitle, setGrants } from "../support/structure"

// Contract calls through `typed`; input the contract's types cannot express (an empty title,
// attachments that are not http(s) URLs or too many, a body that is not JSON) raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

const SPACE_REQUIRED = "ID do espaço é obrigatório."
const SPACE_REFUSED = "Espaço não encontrado ou não pertence a esta comunidade."
const STAFF_ONLY = "Neste espaço, só owner, admin ou moderator podem publicar."

type Space = { id: string }
let setup: TestCommunity
let spaces: Record<"public" | "gated" | "secret" | "staffOnly" | "courses", Space>
let people: Record<
  "member" | "entitled" | "moderator",
  { token: string; profileId: string; id: string; email: string; fullName: string }
>
const plan = unknownId()
beforeAll(async () => {
  setup = await newCommunity(api, "Conteúdo")
  const section = await createSection(api, setup, { visibility: "public" })
  const feed = (body: Record<string, unknown>) =>
    createSpace(api, setup, section.id, { module: "feed", visibility: "public", ...body })
  spaces = {
    public: await feed({ title: "Público" }),
    gated: await feed({ title: "Pago" }),
    secret: await feed({ title: "Secreto", visibility: "secret" }),
    staffOnly: await feed({ title: "Avisos", postingPolicy: "staff" }),
    courses: await createSpace(api, setup, section.id, { visibility: "public" })
  }
  await setGrants(roda, spaces.gated.id, { plans: [plan] })
  await setGrants(roda, spaces.secret.id, { plans: [plan] })
  const entitled = await setup.addMember("member", "Eva Entitled")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  people = {
    member: await setup.addMember("member", "Mano Member"),
    entitled,
    moderator: await setup.addMember("moderator")
  }
})

type ContentPayload = {
  readonly spaceId?: string | null
  readonly title?: string
  readonly body?: string
  readonly attachments?: ReadonlyArray<string>
}
const contentOf = (user: { token: string }, community: { readonly id: string } = setup.community) =>
  typed.as(user, community).content
/** `user` posts in `setup` (title and body by default) through the typed client. */
const post = (user: { token: string }, payload: ContentPayload) =>
  contentOf(user).create({ payload: { title: "Título", body: "Corpo", ...payload } })
/** The same, raw: for input the contract's types refuse before sending. */
const postRaw = (user: { token: string }, body: Record<string, unknown>) =>
  api.post("/api/content", { title: "Título", body: "Corpo", ...body }, as(user, setup.community))
/** `user` posts in `setup` (201, a UUID id): the post. */
const created = async (user: { token: string }, payload: ContentPayload, message?: string) => {
  const { data: reply } = await okReply(post(user, payload), 201)
  if (message !== undefined) expect(reply.message).toBe(message)
  expect(reply.data.id).toMatch(UUID)
  return reply.data
}

describe("POST /api/content", () => {
  it("creates a post (201, data.id) authored by the caller, with attachments, readable by id", async () => {
    const content = await created(people.member, {
      spaceId: spaces.public.id,
      attachments: ["https://example.com/a.png"],
      body: `Veja @[Eva](${people.entitled.profileId})`
    }, "Conteúdo publicado com sucesso.")
    expect(content).toMatchObject({
      spaceId: spaces.public.id,
      title: "Título",
      attachments: ["https://example.com/a.png"],
      author: { id: people.member.profileId, fullName: "Mano Member" },
      mentions: [{ profileId: people.entitled.profileId, fullName: "Eva Entitled" }],
      commentCount: 0,
      reactionCount: 0
    })
    const { data: shown } = await okReply(
      typed.anonymous(setup.community).content.detail({ path: { id: content.id } }),
      200
    )
    expect(shown.message).toBe("Conteúdo encontrado.")
  })

  it("validates input: 400 never 5xx", async () => {
    await failsReply(post(people.member, {}), 400, SPACE_REQUIRED)
    await failsReply(post(people.member, { spaceId: unknownId() }), 400, SPACE_REFUSED)
    await failsReply(post(people.member, { spaceId: "garbage" }), 400, SPACE_REFUSED)
    await invalidReply(post(people.member, { spaceId: spaces.courses.id }), "spaceId")
    expectInvalid(await postRaw(people.member, { spaceId: spaces.public.id, title: "" }), "title")
    // The element at fault is named.
    expectInvalid(
      await postRaw(people.member, { spaceId: spaces.public.id, attachments: ["ftp://x"] }),
      "attachments.0"
    )
    const many = Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`)
    expectInvalid(await postRaw(people.member, { spaceId: spaces.public.id, attachments: many }), "attachments")
    expectError(await api.call("POST", "/api/content", { ...as(people.member, setup.community), raw: "[" }), 400)
  })

  it("applies Access: gated needs an entitlement (403), secret is unknown to members (400), staff post anywhere", async () => {
    await failsReply(post(people.member, { spaceId: spaces.gated.id }), 403)
    await failsReply(post(people.member, { spaceId: spaces.secret.id }), 400, SPACE_REFUSED)
    await created(people.entitled, { spaceId: spaces.gated.id })
    await created(people.entitled, { spaceId: spaces.secret.id })
    await created(people.moderator, { spaceId: spaces.secret.id })
    await created(setup.owner, { spaceId: spaces.gated.id })
  })

  it("applies the posting rule: staff-only spaces refuse members (403)", async () => {
    await failsReply(post(people.member, { spaceId: spaces.staffOnly.id }), 403, STAFF_ONLY)
    await failsReply(post(people.entitled, { spaceId: spaces.staffOnly.id }), 403, STAFF_ONLY)
    await created(people.moderator, { spaceId: spaces.staffOnly.id })
  })

  it("answers 400 for another community's space and 404 for its posts", async () => {
    const other = await newCommunity(api, "Vizinha")
    const section = await createSection(api, other, { visibility: "public" })
    const space = await createSpace(api, other, section.id, { module: "feed", visibility: "public" })
    await failsReply(post(people.member, { spaceId: space.id }), 400, SPACE_REFUSED)
    const { data: foreign } = await okReply(
      contentOf(other.owner, other.community).create({ payload: { spaceId: space.id, title: "t", body: "b" } }),
      201
    )
    expect(foreign.data.id).toMatch(UUID)
    await failsReply(
      contentOf(setup.owner).detail({ path: { id: foreign.data.id } }),
      404,
      "Conteúdo não encontrado."
    )
  })

  it("GET /api/content/{id} follows the space's access rules", async () => {
    const gated = await created(setup.owner, { spaceId: spaces.gated.id })
    const secret = await created(setup.owner, { spaceId: spaces.secret.id })
    const anonymous = typed.anonymous(setup.community).content
    await failsReply(anonymous.detail({ path: { id: gated.id } }), 403)
    await failsReply(anonymous.detail({ path: { id: secret.id } }), 404)
    await failsReply(contentOf(people.member).detail({ path: { id: gated.id } }), 403)
    await okReply(contentOf(people.entitled).detail({ path: { id: gated.id } }), 200)
    await okReply(contentOf(people.moderator).detail({ path: { id: secret.id } }), 200)
  })
})

const memberOf = (
  user: { id: string; email: string; fullName: string; profileId: string },
  role: Member["role"]
): Member => ({
  account: accountOf(user),
  communityId: CommunityId.make(setup.community.id),
  profileId: ProfileId.make(user.profileId),
  role,
  actingProfileId: ProfileId.make(user.profileId)
})

const run = <A>(effect: Effect.Effect<A, unknown, Reactions | Comments>) => roda.runtime.runPromiseExit(effect)
const statusOf = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? (exit.cause.error as { status: number }).status : "ok"

describe("generic item services (used by the feed)", () => {
  it("react and comment on content posts and published courses the member may read", async () => {
    const member = memberOf(people.member, "member")
    const entitled = memberOf(people.entitled, "member")
    const open = await created(setup.owner, { spaceId: spaces.public.id })
    const gated = await created(setup.owner, { spaceId: spaces.gated.id })
    const courses = typed.as(setup.owner, setup.community).courses
    const createCourse = async (title: string) => {
      const { data: reply } = await okReply(courses.create({ payload: { spaceId: spaces.courses.id, title } }), 201)
      expect(reply.data.id).toMatch(UUID)
      return reply.data
    }
    const draft = await createCourse("Rascunho")
    const course = await createCourse("Publicado")
    await okReply(courses.update({ path: { id: course.id }, payload: { status: "published" } }), 200)

    const react = (who: Member, type: "content" | "course", id: string) =>
      run(Effect.flatMap(Reactions, (r) => r.react(who, type, id, "like")))
    const comment = (who: Member, type: "content" | "course", id: string) =>
      run(Effect.flatMap(Comments, (c) => c.add(who, type, id, { body: "Oi" })))

    expect(statusOf(await react(member, "content", open.id))).toBe("ok")
    expect(statusOf(await react(member, "content", gated.id))).toBe(403)
    expect(statusOf(await react(entitled, "content", gated.id))).toBe("ok")
    expect(statusOf(await comment(member, "content", gated.id))).toBe(403)
    expect(statusOf(await comment(entitled, "content", gated.id))).toBe("ok")
    expect(statusOf(await react(member, "course", course.id))).toBe("ok")
    expect(statusOf(await comment(member, "course", course.id))).toBe("ok")
    expect(statusOf(await react(member, "course", draft.id))).toBe(404)
    expect(statusOf(await comment(member, "course", unknownId()))).toBe(404)
    expect(statusOf(await react(member, "content", "not-a-uuid"))).toBe(404)

    const counts = await roda.runtime.runPromise(
      Effect.flatMap(
        Comments,
        (c) => c.countsFor(CommunityId.make(setup.community.id), "course", [course.id, draft.id])
      )
    )
    expect(counts.get(course.id)).toBe(1)
    expect(counts.get(draft.id)).toBeUndefined()
    const { data: detail } = await okReply(contentOf(people.entitled).detail({ path: { id: gated.id } }), 200)
    expect(detail.data).toMatchObject({ reactionCount: 1, commentCount: 1, myReaction: "like" })
  })
})
