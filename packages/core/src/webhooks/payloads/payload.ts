import { Schema } from "effect"
import type { WebhookEventType } from "../eventTypes"

/** What one event type's OpenAPI entry says: a summary, and the schema of its `data`. */
export interface Payload {
  readonly summary: string
  readonly data: Schema.Schema.Any
}

/** Payloads of one feature's events, keyed by type. */
export type Payloads = Partial<Record<WebhookEventType, Payload>>

/** `fields` and the `communityId` every payload carries. */
export const withCommunity = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ...fields, communityId: Schema.String })
