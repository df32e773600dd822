import { expect, it } from "vitest"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { createEvent, eventCommunity } from "../support/events"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: joining an event and cancelling reach the community's webhooks. */
const { api, receiver: running } = webhookSuite()

it("sends event.participation_created and _canceled with the participant as staff list them; a promotion or a refused call sends nothing", async () => {
  const setup = await eventCommunity(api, "Presenças com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/rsvp"),
    events: ["event.participation_created", "event.participation_canceled"]
  }, owner)).body.data
  const event = await createEvent(api, setup, { capacity: 1 })
  const ana = await setup.addMember("member", "Ana Presente")
  const bia = await setup.addMember("member", "Bia Espera")
  const participate = async (person: { token: string }) =>
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(person, setup.community)))
  /** The participant as the participants route lists them to staff. */
  const listed = async (profileId: string) =>
    (expectOk(await api.get(`/api/events/${event.id}/participants`, owner)) as Array<
      { profileId: string; joinedAt: string }
    >)
      .find((p) => p.profileId === profileId)

  expect(await participate(ana)).toMatchObject({ status: "going" })
  const anaGoing = await listed(ana.profileId)
  expect(await participate(bia)).toMatchObject({ status: "waitlisted" })
  const biaWaiting = await listed(bia.profileId)
  // Ana leaves: Bia is promoted to going (no event for the promotion).
  expect(await participate(ana)).toMatchObject({ status: "cancelled", promotedProfileIds: [bia.profileId] })
  const anaCancelled = await listed(ana.profileId)
  expect(anaCancelled).toMatchObject({ status: "cancelled" })
  const stranger = await api.post(`/api/events/${event.id}/participate`, undefined, { token: bia.token })
  expect(stranger.status).toBe(400)

  const delivered = verifiedEvents(hook.secret, await running().waitFor("/rsvp", 3))
  expect(delivered.map((e) => e.type)).toEqual([
    "event.participation_created",
    "event.participation_created",
    "event.participation_canceled"
  ])
  const community = { eventId: event.id, communityId: setup.community.id }
  expect(delivered[0].data).toEqual({ ...anaGoing, ...community })
  expect(delivered[1].data).toEqual({ ...biaWaiting, ...community })
  expect(delivered[1].data).toMatchObject({ status: "waitlisted", fullName: "Bia Espera" })
  expect(delivered[2].data).toEqual({ ...anaCancelled, ...community, canceledAt: expect.any(String) })
  expect(Date.parse(delivered[2].data.canceledAt)).toBeGreaterThanOrEqual(Date.parse(anaGoing!.joinedAt))
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/rsvp", 3)
})
