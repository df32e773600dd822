import { Schema } from "effect"
import { Event } from "../../events/Api"
import type { Payloads } from "./payload"

export const eventPayloads: Payloads = {
  "event.created": {
    summary: "An event was created (the event as its detail route answers staff)",
    data: Schema.Struct(Event.fields)
  },
  "event.canceled": {
    summary: "An event was canceled: deleted by its host or staff (the event as it was, and `canceledAt`)",
    data: Schema.Struct({ ...Event.fields, canceledAt: Schema.String })
  }
}
