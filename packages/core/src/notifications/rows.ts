import { Schema } from "effect"

export const NotificationRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  createdAt: Schema.DateFromSelf,
  readAt: Schema.NullOr(Schema.DateFromSelf),
  actorProfileId: Schema.NullOr(Schema.String),
  actorName: Schema.NullOr(Schema.String),
  subjectType: Schema.String,
  subjectId: Schema.String,
  subjectTitle: Schema.String
})
export type NotificationRow = typeof NotificationRow.Type

export const PreferenceRow = Schema.Struct({
  kind: Schema.String,
  inApp: Schema.Boolean,
  email: Schema.Literal("off", "instant", "daily", "weekly")
})
export type PreferenceRow = typeof PreferenceRow.Type
