import { expect, it } from "vitest"
import { socialCommunity } from "../social/setup"
import { as, NOT_MEMBER } from "../support/community"
import { expectOk } from "../support/envelope"
import { register } from "../support/harness"
import { createSection, createSpace } from "../support/structure"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: posts and comments reach the community's webhooks, each as its route answers it. */
const { api, receiver: running } = webhookSuite()

it("sends post.created for status posts (with and without mentions) and content posts, and nothing for a refused post", async () => {
  const setup = await socialCommunity(api, "Posts com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = expectOk(
    await api.post("/api/webhooks", { url: running().url("/posts"), events: ["post.created"] }, owner),
    201
  )
  const feed = await createSpace(api, setup, (await createSection(api, setup, { visibility: "public" })).id, {
    module: "feed",
    visibility: "public"
  })

  const plain = expectOk(await api.post("/api/status", { body: "Sem menções" }, as(setup.alice, setup.community)), 201)
  const mentioning = expectOk(
    await api.post("/api/status", { body: `Oi @[Bruno](${setup.bruno.profileId})` }, as(setup.bruno, setup.community)),
    201
  )
  const content = expectOk(
    await api.post(
      "/api/content",
      { spaceId: feed.id, title: "Título", body: "Corpo" },
      as(setup.alice, setup.community)
    ),
    201
  )
  const stranger = await register(api, "Sem Comunidade")
  expect((await api.post("/api/status", { body: "Não sou membro" }, as(stranger, setup.community))).body.message)
    .toBe(NOT_MEMBER)

  const delivered = verifiedEvents(hook.secret, await running().waitFor("/posts", 3))
  const c = { communityId: setup.community.id }
  expect(delivered.map((event) => event.data)).toEqual([
    { postType: "status", ...plain, ...c },
    { postType: "status", ...mentioning, ...c },
    { postType: "content", ...content, ...c }
  ])
  expect(mentioning.mentions).toHaveLength(1)
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/posts", 3)
})

it("sends comment.created for a comment and a reply, each as the route answers it", async () => {
  const setup = await socialCommunity(api, "Comentários com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = expectOk(
    await api.post("/api/webhooks", { url: running().url("/comments"), events: ["comment.created"] }, owner),
    201
  )
  const post = expectOk(await api.post("/api/status", { body: "Comentem" }, as(setup.alice, setup.community)), 201)
  const comment = expectOk(
    await api.post(`/api/status/${post.id}/comment`, { body: "Primeiro" }, as(setup.bruno, setup.community)),
    201
  )
  const reply = expectOk(
    await api.post(
      `/api/status/${post.id}/comment`,
      { body: "Resposta", parentId: comment.id },
      as(setup.alice, setup.community)
    ),
    201
  )
  const delivered = verifiedEvents(hook.secret, await running().waitFor("/comments", 2))
  expect(delivered.map((event) => event.data)).toEqual([
    { ...comment, communityId: setup.community.id },
    { ...reply, communityId: setup.community.id }
  ])
  expect(reply.parentId).toBe(comment.id)
  await expectDeclared(api, delivered)
})
