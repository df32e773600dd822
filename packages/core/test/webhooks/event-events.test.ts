import { expect, it } from "vitest"
import { as } from "../support/community"
import { createEvent, eventCommunity, onlineEvent } from "../support/events"
import { verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: an event's creation and cancellation reach the community's webhooks. */
const { api, receiver: running } = webhookSuite()

it("sends event.created and event.canceled with the event as staff see it; a refused create sends nothing", async () => {
  const setup = await eventCommunity(api, "Eventos com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/events"),
    events: ["event.created", "event.canceled"]
  }, owner)).body.data
  const member = await setup.addMember("member")
  const refused = await api.post("/api/events", onlineEvent(setup.space.id), as(member, setup.community))
  expect(refused.status).toBe(403)

  const event = await createEvent(api, setup)
  expect((await api.del(`/api/events/${event.id}`, owner)).status).toBe(200)
  const requests = await running().waitFor("/events", 2)
  const delivered = verifiedEvents(hook.secret, requests)
  expect(delivered.map((e) => e.type)).toEqual(["event.created", "event.canceled"])
  expect(delivered[0].data).toEqual({ ...event, communityId: setup.community.id })
  expect(delivered[0].data.joinUrl).toBe("https://meet.example.com/abc")
  expect(delivered[1].data).toMatchObject({ id: event.id, canceledAt: expect.any(String) })
  const log = await api.get("/api/webhook-events", owner)
  expect(
    log.body.data.filter((e: { type: string }) => e.type.startsWith("event.")).map((e: { type: string }) => e.type)
  )
    .toEqual(["event.canceled", "event.created"])
})
