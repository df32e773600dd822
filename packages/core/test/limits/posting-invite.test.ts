import { Effect, Exit } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { AppError } from "../../src/domain/AppError"
import { CommunityId, ProfileId } from "../../src/domain/Ids"
import { StatusPosts } from "../../src/index"
import { accountOf } from "../support/auth"
import { as, newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { uniqueEmail } from "../support/harness"
import { expectLimited, limitedRoda, limitHeaders } from "./support"

/**
 * Issue 52, item 2: `posting` (20 a minute per member per community, the production default) and
 * `invite` (set to 3 an hour through makeRoda's `rateLimits`); sign-up is turned off (`0`) so that
 * the set-up's many accounts are not limited.
 */
const { api, roda } = limitedRoda({ register: 0, invite: { limit: 3, windowSeconds: 3600 } })
afterAll(() => roda.dispose())

describe("posting: posts and comments, 20 a minute per member per community", () => {
  it("counts status posts and comments together, refuses the 21st with 429; other members and communities are not affected", async () => {
    const { addMember, community, owner } = await newCommunity(api)
    const member = await addMember("member")
    const first = await api.post("/api/status", { body: "post 1" }, as(member, community))
    expect(first.status).toBe(201)
    expect(limitHeaders(first)).toMatchObject({ policy: "posting", q: 20, w: 60, r: 19 })
    const postId = first.body.data.id as string
    for (let i = 2; i <= 10; i++) {
      expect((await api.post("/api/status", { body: `post ${i}` }, as(member, community))).status).toBe(201)
    }
    for (let i = 11; i <= 15; i++) {
      const comment = await api.post(`/api/status/${postId}/comment`, { body: `comment ${i}` }, as(member, community))
      expect(comment.status).toBe(201)
      expect(limitHeaders(comment)).toMatchObject({ policy: "posting", r: 20 - i })
    }
    for (let i = 16; i <= 20; i++) {
      const comment = await api.post(
        `/api/feed/status/${postId}/comment`,
        { body: `comment ${i}` },
        as(member, community)
      )
      expect(comment.status).toBe(201)
    }
    expectLimited(await api.post("/api/status", { body: "one too many" }, as(member, community)), "posting", 60)
    expectLimited(
      await api.post(`/api/status/${postId}/comment`, { body: "again" }, as(member, community)),
      "posting",
      60
    )
    // Nothing was written past the limit.
    const list = await api.get("/api/status?limit=50", as(member, community))
    expect(expectOk(list).filter((post: { body: string }) => post.body === "one too many")).toHaveLength(0)
    // The owner of the same community, and the member in another community, post as before.
    expect((await api.post("/api/status", { body: "owner" }, as(owner, community))).status).toBe(201)
    const other = await newCommunity(api)
    const added = await api.post("/api/profiles/create", { email: member.email }, as(other.owner, other.community))
    expect(added.status).toBe(201)
    await api.post(`/api/profiles/${added.body.data.id}/accept`, undefined, as(member, other.community))
    expect((await api.post("/api/status", { body: "elsewhere" }, as(member, other.community))).status).toBe(201)

    // The MCP tools call the same services (create_status_post: StatusPosts.create): limited too.
    const viaService = await roda.runtime.runPromiseExit(Effect.flatMap(StatusPosts, (posts) =>
      posts.create({
        account: accountOf(member),
        communityId: CommunityId.make(community.id),
        profileId: ProfileId.make(member.profileId),
        role: "member",
        actingProfileId: ProfileId.make(member.profileId)
      }, "from an assistant")))
    expect(Exit.isFailure(viaService)).toBe(true)
    if (Exit.isFailure(viaService)) {
      const error = viaService.cause._tag === "Fail" ? viaService.cause.error : undefined
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).status).toBe(429)
    }
  })

  it("lets at most 20 of 30 parallel posts of one member through", async () => {
    const { addMember, community } = await newCommunity(api)
    const member = await addMember("member")
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post("/api/status", { body: `parallel ${i}` }, as(member, community)))
    )
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(20)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
  })

  it("does not count a post refused before the limit (400 on the body)", async () => {
    const { addMember, community } = await newCommunity(api)
    const member = await addMember("member")
    const bad = await api.post("/api/status", { body: "" }, as(member, community))
    expect(bad.status).toBe(400)
    const good = await api.post("/api/status", { body: "fine" }, as(member, community))
    expect(limitHeaders(good)).toMatchObject({ r: 19 })
  })
})

describe("invite: /api/profiles/invite and /create per community (3 an hour here, through rateLimits)", () => {
  it("counts both routes together and refuses the 4th with 429; another community is not affected", async () => {
    const { community, owner } = await newCommunity(api)
    const invited = await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(owner, community))
    expect(invited.status).toBe(201)
    expect(limitHeaders(invited)).toMatchObject({ policy: "invite", q: 3, w: 3600, r: 2 })
    expect((await api.post("/api/profiles/create", { email: uniqueEmail() }, as(owner, community))).status).toBe(201)
    expect((await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(owner, community))).status).toBe(201)
    expectLimited(
      await api.post("/api/profiles/create", { email: uniqueEmail() }, as(owner, community)),
      "invite",
      3600
    )
    const other = await newCommunity(api)
    expect((await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(other.owner, other.community))).status)
      .toBe(201)
  })

  it("does not count a caller who may not invite: a member cannot use up the community's budget", async () => {
    const { addMember, community, owner } = await newCommunity(api)
    const member = await addMember("member")
    for (let i = 0; i < 5; i++) {
      const refused = await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(member, community))
      expect(refused.status).toBe(403)
      expect(limitHeaders(refused)).toBeUndefined()
    }
    // The owner's own invitation (addMember used one) leaves one more.
    const invited = await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(owner, community))
    expect(invited.status).toBe(201)
    expect(limitHeaders(invited)).toMatchObject({ r: 1 })
  })
})

describe("an Idempotency-Key replay of a limited route", () => {
  it("carries the limit's current headers (not counted again), as the first answer did", async () => {
    const { community, owner } = await newCommunity(api)
    const key = { headers: { "idempotency-key": `invite-${crypto.randomUUID()}` } }
    const body = { email: uniqueEmail() }
    const first = await api.post("/api/profiles/invite", body, { ...as(owner, community), ...key })
    expect(first.status).toBe(201)
    expect(limitHeaders(first)).toMatchObject({ policy: "invite", q: 3, w: 3600, r: 2 })
    const replayed = await api.post("/api/profiles/invite", body, { ...as(owner, community), ...key })
    expect(replayed.status).toBe(201)
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body).toEqual(first.body)
    expect(limitHeaders(replayed)).toMatchObject({ policy: "invite", q: 3, w: 3600, r: 2 })
    expect(limitHeaders(replayed)!.t).toBeLessThanOrEqual(3600)
    // the limit as it is now: another invitation counted since
    expect((await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(owner, community))).status).toBe(201)
    const later = await api.post("/api/profiles/invite", body, { ...as(owner, community), ...key })
    expect(later.headers.get("idempotent-replayed")).toBe("true")
    expect(limitHeaders(later)).toMatchObject({ policy: "invite", r: 1 })
  })

  it("of a post (posting, per member) too; a replay of a route without a limit carries none", async () => {
    const { community, owner } = await newCommunity(api)
    const key = () => ({ headers: { "idempotency-key": crypto.randomUUID() } })
    const postKey = key()
    const first = await api.post("/api/status", { body: "uma vez" }, { ...as(owner, community), ...postKey })
    expect(limitHeaders(first)).toMatchObject({ policy: "posting", q: 20, w: 60, r: 19 })
    const replayed = await api.post("/api/status", { body: "uma vez" }, { ...as(owner, community), ...postKey })
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(limitHeaders(replayed)).toMatchObject({ policy: "posting", q: 20, w: 60, r: 19 })
    const sectionKey = key()
    const section = { title: "Sem limite", visibility: "public" }
    const created = await api.post("/api/sections", section, { ...as(owner, community), ...sectionKey })
    expect(created.status).toBe(201)
    const again = await api.post("/api/sections", section, { ...as(owner, community), ...sectionKey })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.headers.get("ratelimit")).toBeNull()
    expect(again.headers.get("ratelimit-policy")).toBeNull()
  })
})
