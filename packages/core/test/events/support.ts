import { expect } from "vitest"
import type { NewEvent } from "../../src/events/Api"
import { type Contract, ok } from "../support/contract"
import { UUID } from "../support/envelope"
import type { EventCommunity } from "../support/events"

export {
  EVENT_NOT_FOUND,
  type EventCommunity,
  eventCommunity,
  HOST_OR_STAFF,
  INVALID_EVENT_ID
} from "../support/events"

// The suites' helpers of support/events.ts, on the typed client (the other suites keep those).

type EventPayload = typeof NewEvent.Type

export const onlineEvent = (spaceId: string, payload: Partial<EventPayload> = {}): EventPayload => ({
  spaceId,
  title: "Live de lançamento",
  type: "online",
  startTime: "2030-05-01T19:00:00Z",
  endTime: "2030-05-01T21:00:00Z",
  joinUrl: "https://meet.example.com/abc",
  ...payload
})

/** An online event in `setup`'s events space, created by `user` (the owner by default), its host. */
export const createEvent = async (
  typed: Contract,
  setup: EventCommunity,
  payload: Partial<EventPayload> = {},
  user: { readonly token: string } = setup.owner
) => {
  const created = await ok(
    typed.as(user, setup.community).events.create({ payload: onlineEvent(setup.space.id, payload) })
  )
  expect(created.data.id).toMatch(UUID)
  return created.data
}
