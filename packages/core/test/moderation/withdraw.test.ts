import { afterAll, beforeAll, expect, it } from "vitest"
import { inbox, mention } from "../notifications/setup"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, item 1 (platform.md "Moderation"): hidden and removed content leave the notifications.
 * What a hidden post or comment caused (mentions, replies) is withdrawn from every inbox; its author
 * keeps the `moderation` notification telling them.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Retirar")
})

const kinds = async (user: { token: string }) =>
  (await inbox(api, { community: m.community }, user)).map((n) => `${n.kind} ${n.subject.id}`).sort()

const resolve = async (type: "status" | "comment", id: string, action: "hide" | "remove" | "dismiss") => {
  const { caseId } = expectOk(await m.report(m.moderator, type, id, "harassment"), 201)
  expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action }, m.in(m.moderator)))
}

it("hiding a post withdraws the notifications about it; the author is told of the moderation", async () => {
  const post = await m.status(m.alice, `Oi ${mention(m.bruno)}`)
  const reply = await m.comment(m.carla, post.id, `Também ${mention(m.bruno)}`)
  expect(await kinds(m.bruno)).toEqual([`mention ${post.id}`, `mention ${post.id}`])
  expect(await kinds(m.alice)).toContain(`reply ${post.id}`)
  await resolve("status", post.id, "hide")
  expect(await kinds(m.bruno)).toEqual([])
  expect(await kinds(m.alice)).toEqual([`moderation ${post.id}`])
  expect(reply.id).toBeDefined()
})

it("removing a comment withdraws what it caused (its mention, its reply), not the post's own", async () => {
  const post = await m.status(m.alice, `Olá ${mention(m.carla)}`)
  const comment = await m.comment(m.bruno, post.id, `Veja ${mention(m.carla)}`)
  const before = await kinds(m.carla)
  expect(before.filter((k) => k === `mention ${post.id}`)).toHaveLength(2)
  await resolve("comment", comment.id, "remove")
  expect((await kinds(m.carla)).filter((k) => k === `mention ${post.id}`)).toHaveLength(1)
  expect((await kinds(m.alice)).filter((k) => k === `reply ${post.id}`)).toHaveLength(0)
  expect(await kinds(m.bruno)).toContain(`moderation ${comment.id}`)
})

it("a dismissed case withdraws nothing", async () => {
  const post = await m.status(m.alice, `Bom dia ${mention(m.bruno)}`)
  await resolve("status", post.id, "dismiss")
  expect(await kinds(m.bruno)).toContain(`mention ${post.id}`)
})
