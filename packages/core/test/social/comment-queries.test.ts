import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { query } from "../support/sql"
import { type SocialCommunity, socialCommunity } from "./setup"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let statusId: string
beforeAll(async () => {
  setup = await socialCommunity(api, "Consultas de comentários")
  statusId = expectOk(await api.post("/api/status", { body: "Publicação" }, as(setup.alice, setup.community)), 201).id
})

const comment = (user: { token: string }, body: unknown) =>
  statements(() => api.post(`/api/status/${statusId}/comment`, body, as(user, setup.community)))

/** Who the comment notified, and of what (sorted). */
const told = async (commentId: string) =>
  (await query<{ recipientProfileId: string; kind: string }>(
    roda,
    (sql) => sql`SELECT recipient_profile_id, kind FROM notifications WHERE source_id = ${commentId}`
  )).map((row) => `${row.kind} ${row.recipientProfileId}`).sort()

/** The data of the comment's `comment.created` webhook events. */
const events = async (commentId: string) =>
  (await query<{ data: unknown }>(
    roda,
    (sql) => sql`SELECT data FROM webhook_events WHERE type = 'comment.created' AND data->>'id' = ${commentId}`
  )).map((row) => row.data)

const listed = async (id: string, user: { token: string }) => {
  const page = expectOk(await api.get(`/api/status/${statusId}/comments?limit=100`, as(user, setup.community)))
  return page.find((row: { id: string }) => row.id === id)
}

/**
 * Issue 58 ("Writes at scale"): a new comment had its mentions deleted (none can exist yet) and was
 * read back with its reactions, the caller's reaction and its mentions (none but those just written).
 * Its view is built from its insert and its mentions' insert now.
 */
describe("POST /api/status/{id}/comment statements", () => {
  it("without mentions: the comment, its reply notification and its event", async () => {
    const { n, result, transactions } = await comment(setup.bruno, { body: "Concordo!" })
    const created = expectOk(result, 201)
    expect(created).toMatchObject({
      body: "Concordo!",
      author: { id: setup.bruno.profileId, fullName: "Bruno Braga", avatarUrl: null },
      reactions: { like: 0, love: 0, celebrate: 0, insightful: 0, funny: 0 },
      reactionCount: 0,
      myReaction: null,
      mentions: []
    })
    expect(await listed(created.id, setup.bruno)).toEqual(created)
    // The caller, the post, the comment, the post's author's `reply` (read, then written), the event:
    // 11 statements and a savepoint before.
    expect([n, transactions]).toEqual([6, 1])
    expect(await told(created.id)).toEqual([`reply ${setup.alice.profileId}`])
    expect(await events(created.id)).toEqual([{ ...created, communityId: setup.community.id }])
  })

  it("with mentions: answers them as a read would", async () => {
    const body = `Oi @[Maria](${setup.moderator.profileId}) e @${setup.alice.profileId}`
    const { n, result, transactions } = await comment(setup.bruno, { body })
    const created = expectOk(result, 201)
    expect(created.mentions).toHaveLength(2)
    expect(await listed(created.id, setup.bruno)).toEqual(created)
    // The mentions and their notifications instead of the `reply` (Alice, mentioned, is told once):
    // 12 statements and a savepoint before.
    expect([n, transactions]).toEqual([7, 1])
    expect(await told(created.id)).toEqual(
      [`mention ${setup.alice.profileId}`, `mention ${setup.moderator.profileId}`].sort()
    )
    expect(await events(created.id)).toEqual([{ ...created, communityId: setup.community.id }])
  })

  it("a reply: its parent locked in the comment's transaction", async () => {
    const parent = expectOk((await comment(setup.alice, { body: "Pai" })).result, 201)
    const { n, result, transactions } = await comment(setup.bruno, { body: "Filho", parentId: parent.id })
    const created = expectOk(result, 201)
    expect(created.parentId).toBe(parent.id)
    expect(await listed(created.id, setup.bruno)).toEqual(created)
    // The parent's lock too: 12 statements and a savepoint before.
    expect([n, transactions]).toEqual([7, 1])
    expect(await told(created.id)).toEqual([`reply ${setup.alice.profileId}`])
  })
})
