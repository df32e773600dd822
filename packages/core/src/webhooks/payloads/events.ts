import { Schema } from "effect"
import { Event, Participant } from "../../events/Api"
import { type Payloads, withCommunity } from "./payload"

export const eventPayloads: Payloads = {
  "event.created": {
    summary: "An event was created (the event as its detail route answers staff)",
    data: Schema.Struct(Event.fields)
  },
  "event.canceled": {
    summary: "An event was canceled: deleted by its host or staff (the event as it was, and `canceledAt`)",
    data: Schema.Struct({ ...Event.fields, canceledAt: Schema.String })
  },
  "event.participation_created": {
    summary: "A member joined an event, going or waitlisted (the participant as staff list them, and `eventId`)",
    data: withCommunity({ ...Participant.fields, eventId: Schema.String })
  },
  "event.participation_canceled": {
    summary: "A member canceled their participation (the participant, `eventId` and `canceledAt`)",
    data: withCommunity({ ...Participant.fields, eventId: Schema.String, canceledAt: Schema.String })
  }
}
