import { expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectOk } from "../support/envelope"
import { webhookSuite } from "./receiver"

/** The integration lists page by keyset: `limit` rows, and a `nextCursor` while more remain. */
const { api, receiver: running } = webhookSuite()

/** Every page of `path` at `limit` a page: the ids in order, and how many pages it took. */
const walk = async (path: string, caller: ReturnType<typeof as>, limit: number) => {
  const ids: Array<string> = []
  let cursor: string | null = null
  let pages = 0
  do {
    const separator = path.includes("?") ? "&" : "?"
    const reply = await api.get(
      `${path}${separator}limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      caller
    )
    const items = expectOk(reply) as Array<{ id: string }>
    expect(items.length).toBeLessThanOrEqual(limit)
    ids.push(...items.map((item) => item.id))
    cursor = reply.body.pagination.nextCursor
    pages++
  } while (cursor !== null && pages < 10)
  return { ids, pages }
}

it("pages webhooks, their deliveries, the event log and API keys", async () => {
  const setup = await newCommunity(api, "Páginas de integrações")
  const owner = as(setup.owner, setup.community)
  const hooks = []
  for (let i = 0; i < 3; i++) {
    hooks.push(
      expectOk(await api.post("/api/webhooks", { url: running().url(`/pages/${i}`), events: ["*"] }, owner), 201)
    )
  }
  for (let i = 0; i < 3; i++) expectOk(await api.post(`/api/webhooks/${hooks[0].id}/test`, undefined, owner))
  await running().waitFor("/pages/0", 3)
  for (let i = 0; i < 3; i++) {
    expectOk(await api.post("/api/api-keys", { name: `Chave ${i}`, scopes: ["webhooks:manage"] }, owner), 201)
  }

  const endpoints = await walk("/api/webhooks", owner, 2)
  expect([endpoints.ids.length, new Set(endpoints.ids).size, endpoints.pages]).toEqual([3, 3, 2])
  expect(endpoints.ids.sort()).toEqual(hooks.map((hook) => hook.id).sort())
  const deliveries = await walk(`/api/webhooks/${hooks[0].id}/deliveries`, owner, 2)
  expect([deliveries.ids.length, new Set(deliveries.ids).size, deliveries.pages]).toEqual([3, 3, 2])
  const events = await walk("/api/webhook-events?type=webhook.test", owner, 2)
  expect([events.ids.length, new Set(events.ids).size, events.pages]).toEqual([3, 3, 2])
  const keys = await walk("/api/api-keys", owner, 2)
  expect([keys.ids.length, new Set(keys.ids).size, keys.pages]).toEqual([3, 3, 2])
})
