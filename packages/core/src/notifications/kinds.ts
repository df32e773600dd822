/** The kinds of notification (platform.md "Notifications"), in the order preferences list them. */
export const NOTIFICATION_KINDS = [
  "mention",
  "reply",
  "reaction",
  "space_post",
  "event_reminder",
  "event_changed",
  "course_update",
  "certificate_issued",
  "submission_update",
  "invitation",
  "payment_failed",
  "payout_update",
  "moderation"
] as const

export type NotificationKind = typeof NOTIFICATION_KINDS[number]

export const EMAIL_CADENCES = ["off", "instant", "daily", "weekly"] as const
export type EmailCadence = typeof EMAIL_CADENCES[number]

export interface Preference {
  readonly inApp: boolean
  readonly email: EmailCadence
}

const INSTANT_EMAIL: ReadonlySet<NotificationKind> = new Set([
  "mention",
  "reply",
  "event_reminder",
  "event_changed",
  "certificate_issued",
  "submission_update",
  "invitation",
  "payment_failed",
  "payout_update",
  "moderation"
])

/** In-app on for every kind; e-mail `instant` for what concerns the member directly, `daily` for the rest. */
export const defaultPreference = (kind: NotificationKind): Preference => ({
  inApp: true,
  email: INSTANT_EMAIL.has(kind) ? "instant" : "daily"
})
