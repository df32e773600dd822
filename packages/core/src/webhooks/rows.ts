import { Schema } from "effect"

export const EndpointRow = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretUntil: Schema.NullOr(Schema.DateFromSelf),
  disabledReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type EndpointRow = typeof EndpointRow.Type

export const DeliveryRow = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  status: Schema.Literal("pending", "succeeded", "failed"),
  attempts: Schema.Number,
  lastStatusCode: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
})
export type DeliveryRow = typeof DeliveryRow.Type

export const EventRow = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  data: Schema.Unknown,
  createdAt: Schema.DateFromSelf
})
export type EventRow = typeof EventRow.Type

/** A delivery the worker claimed, with what it needs to send it. */
export const ClaimedRow = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  communityId: Schema.String,
  attempts: Schema.Number,
  url: Schema.String,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretUntil: Schema.NullOr(Schema.DateFromSelf),
  eventId: Schema.String,
  eventType: Schema.String,
  data: Schema.Unknown,
  eventAt: Schema.DateFromSelf
})
export type ClaimedRow = typeof ClaimedRow.Type
