import { expect, it } from "vitest"
import { moderationCommunity } from "../moderation/setup"
import { expectError, expectOk } from "../support/envelope"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 56, item 1: a new report reaches the community's webhooks as `POST /api/reports` answers it. */
const { api, receiver: running } = webhookSuite()

it("sends report.created for a new report only: a repeat, an own-content report or a refused one sends nothing", async () => {
  const m = await moderationCommunity(api, "Denúncias com ganchos")
  const hook = expectOk(
    await api.post("/api/webhooks", { url: running().url("/reports"), events: ["report.created"] }, m.in(m.owner)),
    201
  )
  const post = await m.status(m.alice, "Post denunciado")
  const { alreadyReported: _, ...report } = expectOk(
    await m.report(m.bruno, "status", post.id, "spam", "Propaganda"),
    201
  )
  expectOk(await m.report(m.bruno, "status", post.id, "hate"), 200)
  expectError(await m.report(m.alice, "status", post.id), 400)
  expectError(await m.report(m.bruno, "status", m.feedSpace.id), 404)
  const { alreadyReported: __, ...second } = expectOk(
    await m.report(m.carla, "profile", m.alice.profileId, "other"),
    201
  )

  const delivered = verifiedEvents(hook.secret, await running().waitFor("/reports", 2))
  expect(delivered.map((e) => e.type)).toEqual(["report.created", "report.created"])
  expect(delivered.map((e) => e.data)).toEqual([
    { ...report, communityId: m.community.id },
    { ...second, communityId: m.community.id }
  ])
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/reports", 2)
})
