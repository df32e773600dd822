import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, fieldError, forbidden, invalidFields, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { Jobs } from "../platform/Jobs"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { AttendanceRepo, type Attendee, type AttendeeRow } from "./AttendanceRepo"
import { EVENT_ATTENDED_JOB, type EventAttended } from "./EventAttended"
import { eventMessages as M } from "./messages"
import { managesEvent } from "./Policy"
import { EventsRepo } from "./Repo"
import { normalizeTicketCode } from "./ticket"

/** Checked-in people are listed by arrival; the cursor is the last `[checkedInAt, profileId]`. */
const AttendanceCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

export interface CheckInInput {
  readonly profileId?: string | undefined
  readonly code?: string | undefined
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

const attendeeView = (eventId: string, row: AttendeeRow) => ({
  eventId,
  profileId: row.profileId,
  fullName: row.fullName,
  avatarUrl: row.avatarUrl,
  status: row.status,
  checkedInAt: iso(row.checkedInAt)
})

/**
 * Check-in at the door and the attendance list, for whoever manages the event (staff or its host).
 * A first check-in also tells listeners through the `events.attended` job (contract
 * `EventAttended.ts`: certificates issue on the `event_attendance` rule).
 */
export class CheckIns extends Effect.Service<CheckIns>()("@roda/core/EventCheckIns", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* EventsRepo
    const attendance = yield* AttendanceRepo
    const jobs = yield* Jobs

    const managed = (member: Member, id: string) =>
      Effect.gen(function*() {
        const event = yield* orNotFound(M.eventNotFound)(events.find(member.communityId, id.trim().toLowerCase()))
        if (!managesEvent(member, event)) return yield* Effect.fail(forbidden(M.eventHostOrStaff))
        return event
      })

    /** Exactly one of `profileId` and `code` (400 naming both otherwise); a code in its canonical form. */
    const attendeeOf = (input: CheckInInput) => {
      const hasProfile = input.profileId !== undefined
      const hasCode = input.code !== undefined
      if (hasProfile === hasCode) {
        return Effect.fail(invalidFields([
          fieldError("profileId", M.checkInTarget),
          fieldError("code", M.checkInTarget)
        ]))
      }
      if (input.profileId !== undefined) return Effect.succeed<Attendee>({ profileId: input.profileId.toLowerCase() })
      const code = normalizeTicketCode(input.code!)
      // A code that cannot be one is no ticket of this event either.
      return Effect.succeed<Attendee>({ code: code ?? "" })
    }

    const missing = (attendee: Attendee) =>
      "profileId" in attendee
        ? notFound(M.participantNotFound, [fieldError("profileId", M.participantNotFound)])
        : notFound(M.ticketNotFound, [fieldError("code", M.ticketNotFound)])

    /**
     * Only someone going is checked in (409 for waitlisted or cancelled, with `param: status`). A
     * check-in already recorded answers it again (`alreadyCheckedIn`), writing nothing: the row's
     * conditional update lets exactly one of concurrent calls write, and only that one enqueues.
     */
    const checkIn = traced("Events.checkIn")(function*(member: Member, id: string, input: CheckInInput) {
      const event = yield* managed(member, id)
      const attendee = yield* attendeeOf(input)
      const find = Effect.flatMap(
        attendance.find(member.communityId, event.id, attendee),
        Option.match({ onNone: () => Effect.fail(missing(attendee)), onSome: Effect.succeed })
      )
      const found = yield* find
      if (found.checkedInAt === null && found.status !== "going") {
        const message = M.checkInNotGoing(found.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const wrote = found.checkedInAt !== null ? false : yield* transactional(sql)(Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        if (!(yield* attendance.checkIn(member.communityId, event.id, found.profileId, at))) return false
        const attended: EventAttended = {
          communityId: member.communityId,
          spaceId: event.spaceId,
          eventId: event.id,
          profileId: found.profileId
        }
        yield* jobs.enqueue({ kind: EVENT_ATTENDED_JOB, key: `${event.id}:${found.profileId}`, payload: attended })
        return true
      }))
      // re-read unless it was checked in before: this call's write, or a concurrent one's, or a leave
      const row = found.checkedInAt !== null ? found : yield* find
      if (row.checkedInAt === null) {
        // left between the read and the write
        const message = M.checkInNotGoing(row.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      return { ...attendeeView(event.id, row), checkedInAt: row.checkedInAt.toISOString(), alreadyCheckedIn: !wrote }
    })

    const list = traced("Events.attendance")(function*(member: Member, id: string, query: PageQuery) {
      const event = yield* managed(member, id)
      const counts = yield* attendance.counts(member.communityId, event.id)
      const page = yield* paginate(
        query,
        AttendanceCursor,
        (after, limit) => attendance.checkedIn(member.communityId, event.id, { after, limit }),
        (row) => [row.checkedInAt.toISOString(), row.profileId]
      )
      return {
        items: page.items.map((row) => ({
          profileId: row.profileId,
          fullName: row.fullName,
          avatarUrl: row.avatarUrl,
          checkedInAt: row.checkedInAt.toISOString()
        })),
        pagination: page.pagination,
        counts
      }
    })

    return { checkIn, attendance: list }
  }),
  dependencies: [EventsRepo.Default, AttendanceRepo.Default]
}) {}
