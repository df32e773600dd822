import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCourse, publish } from "../support/courses"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSpace } from "../support/structure"
import { type FeedCommunity, feedCommunity, insertContent, insertStatus, minutesAgo } from "./setup"

/** POST /api/feed/{type}/{id}/react and /comment work for every feed item type. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let f: FeedCommunity
let other: FeedCommunity
const items: Record<"status" | "content" | "course" | "event", string> = {
  status: "",
  content: "",
  course: "",
  event: ""
}
let gated = ""

const insertEvent = async (community: FeedCommunity, spaceId: string) => {
  const id = randomUUID()
  await query(
    roda,
    (sql) =>
      sql`INSERT INTO events (id, community_id, space_id, host_profile_id, title, slug, type, start_time, end_time)
      VALUES (${id}, ${community.community.id}, ${spaceId}, ${community.owner.profileId}, 'Encontro',
        ${"encontro-" + id.slice(0, 8)}, 'online', now() + interval '1 day', now() + interval '1 day 2 hours')
      RETURNING id`
  )
  return id
}

beforeAll(async () => {
  f = await feedCommunity(api, roda, "Interações")
  other = await feedCommunity(api, roda, "Outra")
  const c = f.community.id
  items.status = await insertStatus(roda, c, f.member.profileId, "Bom dia", minutesAgo(5))
  items.content = await insertContent(roda, c, f.spaces.public.id, f.member.profileId, "Aviso", minutesAgo(4))
  const course = await createCourse(api, { ...f, space: f.spaces.courses }, { title: "Curso aberto" })
  await publish(api, f, course.id)
  items.course = course.id
  const eventsSpace = await createSpace(api, f, f.section.id, {
    module: "events",
    visibility: "public",
    title: "Agenda"
  })
  items.event = await insertEvent(f, eventsSpace.id)
  gated = await insertContent(roda, c, f.spaces.gated.id, f.member.profileId, "Só para assinantes", minutesAgo(3))
})

describe("reactions and comments on any feed item", () => {
  it("reacts to every type: the same type again removes it, another replaces it", async () => {
    for (const [type, id] of Object.entries(items)) {
      const liked = expectOk(await api.post(`/api/feed/${type}/${id}/react`, { type: "like" }, f.headers.member))
      expect(liked.reaction).toBe("like")
      expect(liked.reactions.like).toBe(1)
      const loved = expectOk(await api.post(`/api/feed/${type}/${id}/react`, { type: "love" }, f.headers.member))
      expect(loved.reactions).toMatchObject({ like: 0, love: 1 })
      const removed = expectOk(await api.post(`/api/feed/${type}/${id}/react`, { type: "love" }, f.headers.member))
      expect(removed.reaction).toBeNull()
      expect(removed.reactionCount).toBe(0)
    }
  })

  it("comments on every type, and the feed counts them", async () => {
    for (const [type, id] of Object.entries(items)) {
      const reply = await api.post(
        `/api/feed/${type}/${id}/comment`,
        { body: `Comentário em ${type}` },
        f.headers.member
      )
      expect(reply.status).toBe(201)
      expect(reply.body.data.body).toBe(`Comentário em ${type}`)
      await api.post(`/api/feed/${type}/${id}/react`, { type: "celebrate" }, f.headers.moderator)
    }
    const feed = expectOk(await api.get("/api/feed?limit=100", f.headers.member))
    for (const [type, id] of Object.entries(items)) {
      const item = feed.find((entry: { id: string }) => entry.id === id)
      expect(item, type).toBeDefined()
      expect(item.commentCount, type).toBe(1)
    }
  })

  it("refuses items the caller may not read, and other communities' items", async () => {
    const hidden = await api.post(`/api/feed/content/${gated}/react`, { type: "like" }, f.headers.member)
    expect([403, 404]).toContain(hidden.status)
    expectOk(await api.post(`/api/feed/content/${gated}/react`, { type: "like" }, f.headers.entitled))
    const foreign = await insertStatus(roda, other.community.id, other.member.profileId, "Alheio", minutesAgo(1))
    expect((await api.post(`/api/feed/status/${foreign}/react`, { type: "like" }, f.headers.member)).status).toBe(404)
    expect((await api.post(`/api/feed/status/${unknownId()}/comment`, { body: "x" }, f.headers.member)).status).toBe(
      404
    )
  })

  it("answers 400 for an unknown type, a malformed id, reaction type or body; 401 without a token", async () => {
    expectInvalid(
      await api.post(`/api/feed/poll/${items.status}/react`, { type: "like" }, f.headers.member),
      "type",
      "params"
    )
    expectInvalid(
      await api.post("/api/feed/status/not-an-id/react", { type: "like" }, f.headers.member),
      "id",
      "params"
    )
    expectInvalid(await api.post(`/api/feed/status/${items.status}/react`, { type: "meh" }, f.headers.member), "type")
    expectInvalid(await api.post(`/api/feed/status/${items.status}/comment`, { body: "" }, f.headers.member), "body")
    expectError(
      await api.post(`/api/feed/status/${items.status}/react`, { type: "like" }, f.headers.anonymous),
      401,
      "Authentication token is required"
    )
  })
})
