import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { Memberships } from "../communities/Memberships"
import { CommunityId } from "../domain/Ids"
import { Notify } from "../notifications/Notify"
import { Jobs } from "../platform/Jobs"
import { type Mail, Mailer } from "../platform/Mailer"
import { transactional } from "../sql/transaction"
import { AttendanceRepo } from "./AttendanceRepo"
import {
  canceledMail,
  changedMail,
  changeOf,
  type MailRecipient,
  type ReminderLead,
  reminderMail,
  ticketMail
} from "./mails"
import { type EventRow, EventsRepo } from "./Repo"

export const REMINDER_JOB = "events.reminder"

const leads: ReadonlyArray<{ readonly lead: ReminderLead; readonly millis: number }> = [
  { lead: "24h", millis: 24 * 3_600_000 },
  { lead: "1h", millis: 3_600_000 }
]

const Reminder = Schema.Struct({
  communityId: CommunityId,
  eventId: Schema.String,
  lead: Schema.Literal("24h", "1h"),
  /** The start time the reminder was scheduled for: a rescheduled event's old reminders send nothing. */
  startTime: Schema.String
})

/**
 * What participants going are told about an event, written in the transaction of what caused it:
 * their ticket when they become `going`, a change of time or place, a cancellation, and the reminders
 * 24 h and 1 h before the start (durable jobs; a reminder whose moment has passed when the event is
 * created or moved is not scheduled).
 */
export class EventNotices extends Effect.Service<EventNotices>()("@roda/core/EventNotices", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const mailer = yield* Mailer
    const memberships = yield* Memberships
    const jobs = yield* Jobs
    const attendance = yield* AttendanceRepo
    const events = yield* EventsRepo
    const notify = yield* Notify

    /**
     * The one place where participants are told something about an event: an e-mail each and, with a
     * `notice` (kinds `event_reminder`, `event_changed`), the in-app notification in the same
     * transaction; then the e-mail goes only to those who want that kind by e-mail. The ticket is no
     * notification kind: it is always e-mailed.
     */
    const tell = (
      event: EventRow,
      tickets: ReadonlyArray<{ readonly profileId: string; readonly ticketCode: string }>,
      mailOf: (to: MailRecipient, code: string) => Mail,
      notice?: { readonly kind: "event_reminder" | "event_changed"; readonly onceKey?: string }
    ) =>
      Effect.gen(function*() {
        if (tickets.length === 0) return
        const participants = tickets.map((ticket) => ticket.profileId)
        const mailed = notice === undefined ? participants : yield* notify.notifyMailing(event.communityId, {
          kind: notice.kind,
          recipients: participants,
          subject: { type: "event", id: event.id, title: event.title },
          spaceId: event.spaceId,
          onceKey: notice.onceKey
        })
        if (mailed.length === 0) return
        const recipients = yield* memberships.recipients(event.communityId, mailed)
        const codes = new Map(tickets.map((ticket) => [ticket.profileId, ticket.ticketCode]))
        yield* Effect.forEach(recipients, (to) => mailer.send(mailOf(to, codes.get(to.profileId)!)), {
          discard: true
        })
      })

    /** The ticket e-mail of those of `profileIds` who are going. */
    const confirm = (event: EventRow, profileIds: ReadonlyArray<string>) =>
      profileIds.length === 0 ? Effect.void : Effect.flatMap(
        attendance.tickets(event.communityId, event.id, profileIds),
        (tickets) => tell(event, tickets, (to, code) => ticketMail(event, to, code))
      )

    const scheduleReminders = (event: EventRow) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        for (const { lead, millis } of leads) {
          const runAt = event.startTime.getTime() - millis
          if (runAt <= now) continue
          const startTime = event.startTime.toISOString()
          yield* jobs.enqueue({
            kind: REMINDER_JOB,
            key: `${event.id}:${lead}:${startTime}`,
            payload: { communityId: event.communityId, eventId: event.id, lead, startTime },
            runAt
          })
        }
      })

    /** After an edit (under the event's lock): the participants going hear of a new time or place. */
    const changed = (before: EventRow, after: EventRow) =>
      Effect.gen(function*() {
        const change = changeOf(before, after)
        if (before.startTime.getTime() !== after.startTime.getTime()) yield* scheduleReminders(after)
        if (!change.time && !change.place) return
        const tickets = yield* attendance.tickets(after.communityId, after.id)
        yield* tell(after, tickets, (to) => changedMail(after, to, change), { kind: "event_changed" })
      })

    /** The event is removed: its reminders find it gone and send nothing; the participants going hear of it. */
    const canceled = (event: EventRow) =>
      Effect.flatMap(
        attendance.tickets(event.communityId, event.id),
        (tickets) => tell(event, tickets, (to) => canceledMail(event, to), { kind: "event_changed" })
      )

    const remind = (payload: unknown) =>
      Effect.gen(function*() {
        const reminder = yield* Schema.decodeUnknown(Reminder)(payload).pipe(Effect.orDie)
        const found = yield* events.find(reminder.communityId, reminder.eventId)
        // removed, or hidden by a moderator: its participants no longer read it
        if (Option.isNone(found) || found.value.hidden) return
        const event = found.value
        const now = yield* Clock.currentTimeMillis
        if (event.startTime.toISOString() !== reminder.startTime || event.startTime.getTime() <= now) return
        yield* transactional(sql)(Effect.gen(function*() {
          const tickets = yield* attendance.tickets(event.communityId, event.id)
          const key = `reminder-${reminder.lead}:${reminder.startTime}`
          const first = new Set(
            yield* attendance.firstNotice(
              event.communityId,
              event.id,
              tickets.map((ticket) => ticket.profileId),
              key,
              new Date(now)
            )
          )
          yield* tell(
            event,
            tickets.filter((ticket) => first.has(ticket.profileId)),
            (to, code) => reminderMail(event, to, reminder.lead, code),
            { kind: "event_reminder", onceKey: `${event.id}:${key}` }
          )
        }))
      })

    yield* jobs.handle(REMINDER_JOB, remind)

    return { confirm, scheduleReminders, changed, canceled }
  }),
  dependencies: [AttendanceRepo.Default, EventsRepo.Default]
}) {}
