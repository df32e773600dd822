import { as, newCommunity } from "./community"
import { expectCreated } from "./envelope"
import type { Client } from "./harness"
import { createSection, createSpace } from "./structure"

export const EVENT_NOT_FOUND = "Evento não encontrado."
export const INVALID_EVENT_ID = "Valid event ID is required"
export const HOST_OR_STAFF = "Apenas o anfitrião do evento ou owner, admin ou moderator podem fazer isso."

/** A community with a public section holding a public events space. */
export const eventCommunity = async (api: Client, label = "Eventos") => {
  const setup = await newCommunity(api, label)
  const section = await createSection(api, setup, { visibility: "public" })
  const space = await createSpace(api, setup, section.id, { visibility: "public", module: "events" })
  return { ...setup, section, space }
}

export type EventCommunity = Awaited<ReturnType<typeof eventCommunity>>

export const onlineEvent = (spaceId: string, body: Record<string, unknown> = {}) => ({
  spaceId,
  title: "Live de lançamento",
  type: "online",
  startTime: "2030-05-01T19:00:00Z",
  endTime: "2030-05-01T21:00:00Z",
  joinUrl: "https://meet.example.com/abc",
  ...body
})

export const createEvent = async (
  api: Client,
  setup: EventCommunity,
  body: Record<string, unknown> = {},
  user: { token: string } = setup.owner
) => expectCreated(await api.post("/api/events", onlineEvent(setup.space.id, body), as(user, setup.community)))
