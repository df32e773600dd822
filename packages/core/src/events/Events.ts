import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { requireNotSuspended } from "../communities/Memberships"
import { conflict, fieldError, forbidden, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { slugify } from "../domain/Fields"
import { orNotFound } from "../domain/found"
import { type CommunityId, Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { CursorPart, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { isStaff, staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { uniqueViolation } from "../sql/errors"
import { insertWithFreeSlug as insertFreeSlug, slugTaken } from "../sql/freeSlug"
import { atomic, transactional } from "../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { icsOf } from "./calendar"
import {
  addressColumns,
  checkEvent,
  type EventChangesInput,
  type EventQuery,
  type NewEventInput,
  type ParticipantQuery
} from "./eventFields"
import { eventMessages as M } from "./messages"
import { EventNotices } from "./Notices"
import { checkStreamMove, managesEvent, nextParticipation, type ParticipantStatus, type StreamStatus } from "./Policy"
import { type EventFields, type EventRow, EventsRepo, type NewEventRow, type ParticipantRow } from "./Repo"
import { ticketCodeOf } from "./ticket"
import { eventView, participantView } from "./view"

/** Events are listed by start time, then id; the cursor is the last `[startTime, id]`. */
const EventCursor = Schema.Tuple(CursorPart.timestamp, Uuid)
/** Participants are listed in line order; the cursor is the last `[joinedAt, joinSeq]`. */
const ParticipantCursor = Schema.Tuple(CursorPart.timestamp, CursorPart.bigintText)

/** Events: creation in an events space, edits, removal, participation with a waitlist, streams, calendar. */
export class Events extends Effect.Service<Events>()("@roda/core/Events", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const webhooks = yield* WebhookEvents
    const repo = yield* EventsRepo
    const access = yield* Access
    const ids = yield* Ids
    const notices = yield* EventNotices
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (communityId: CommunityId, id: string) =>
      orNotFound(M.eventNotFound)(repo.find(communityId, id.trim().toLowerCase()))

    const findByIdentifier = (communityId: CommunityId, identifier: string) =>
      orNotFound(M.eventNotFound)(repo.findByIdentifier(communityId, identifier))

    /** The event for someone who manages it (staff or host); 404 before 403, like every other resource. */
    const managed = (member: Member, id: string) =>
      Effect.gen(function*() {
        const event = yield* find(member.communityId, id)
        if (!managesEvent(member, event)) return yield* Effect.fail(forbidden(M.eventHostOrStaff))
        return event
      })

    /** The space of a new event: given, of this community, and an events space (all 400). */
    const eventSpace = (member: Member, spaceId: string | null | undefined) =>
      Effect.map(eventsSpaceOf(viewerOfMember(member), spaceId), (space) => space.spaceId)
    const eventsSpaceOf = access.spaceOf("events", {
      in: "body",
      required: Messages.spaceIdRequired,
      unknown: Messages.spaceNotFound,
      otherModule: M.notAnEventsSpace
    })

    const insertWithFreeSlug = (row: NewEventRow, generated: boolean) =>
      insertFreeSlug({
        sql,
        slug: row.slug,
        generated,
        insert: (slug) => repo.insert({ ...row, slug }),
        randomSuffix: ids.next
      })

    const isStaffViewer = (viewer: Viewer) => Option.exists(viewer.member, (member) => isStaff(member.role))
    const isHost = (viewer: Viewer, event: EventRow) =>
      Option.exists(viewer.member, (member) => member.profileId === event.hostProfileId)

    /** An event hidden by a moderator is read only by its host and staff: 404 for everyone else. */
    const seen = (viewer: Viewer, event: EventRow) =>
      event.hidden && !isStaffViewer(viewer) && !isHost(viewer, event)
        ? Effect.fail(notFound(M.eventNotFound))
        : Effect.succeed(event)

    const create = traced("Events.create")(function*(member: Member, input: NewEventInput) {
      yield* requireRole(member, staffRoles)
      const spaceId = yield* eventSpace(member, input.spaceId)
      const fields: EventFields = {
        title: input.title,
        slug: input.slug ?? (slugify(input.title) || "evento"),
        description: input.description ?? null,
        type: input.type,
        startTime: new Date(input.startTime),
        endTime: new Date(input.endTime),
        timezone: input.timezone ?? null,
        capacity: input.capacity ?? null,
        categoryId: input.categoryId ?? null,
        joinUrl: input.joinUrl ?? null,
        ...addressColumns(input.address ?? null)
      }
      yield* checkEvent(fields, input.address !== undefined && input.address !== null)
      const id = yield* ids.next
      const at = yield* now
      // the event and its webhook event together, or neither
      return yield* transactional(sql)(Effect.gen(function*() {
        yield* insertWithFreeSlug({
          ...fields,
          id,
          communityId: member.communityId,
          spaceId,
          hostProfileId: member.actingProfileId,
          createdAt: at,
          updatedAt: at
        }, input.slug === undefined)
        const row = yield* find(member.communityId, id)
        yield* notices.scheduleReminders(row)
        const created = eventView(row, true)
        yield* webhooks.emit(member.communityId, "event.created", created)
        return created
      }))
    })

    const update = traced("Events.update")(function*(member: Member, id: string, input: EventChangesInput) {
      const { id: eventId } = yield* managed(member, id)
      const changes: { -readonly [K in keyof EventFields]?: EventFields[K] } = {}
      if (input.title !== undefined) changes.title = input.title
      if (input.slug !== undefined) changes.slug = input.slug
      if (input.description !== undefined) changes.description = input.description
      if (input.type !== undefined) changes.type = input.type
      if (input.startTime !== undefined) changes.startTime = new Date(input.startTime)
      if (input.endTime !== undefined) changes.endTime = new Date(input.endTime)
      if (input.timezone !== undefined) changes.timezone = input.timezone
      if (input.capacity !== undefined) changes.capacity = input.capacity
      if (input.categoryId !== undefined) changes.categoryId = input.categoryId
      if (input.joinUrl !== undefined) changes.joinUrl = input.joinUrl
      if (input.address !== undefined) Object.assign(changes, addressColumns(input.address))
      yield* transactional(sql)(Effect.gen(function*() {
        if (!(yield* repo.lock(member.communityId, eventId))) {
          return yield* Effect.fail(notFound(M.eventNotFound))
        }
        // Checked against the row as it is under the lock: two edits that each pass alone may not together.
        const event = yield* find(member.communityId, eventId)
        yield* checkEvent({ ...event, ...changes }, input.address !== undefined && input.address !== null)
        const at = yield* now
        let promoted: ReadonlyArray<string> = []
        if (input.capacity !== undefined) {
          const going = yield* repo.goingCount(member.communityId, event.id)
          if (input.capacity !== null && input.capacity < going) {
            const message = M.eventCapacityBelowGoing(going)
            return yield* Effect.fail(conflict(message, [fieldError("capacity", message)]))
          }
          promoted = yield* repo.promote(
            member.communityId,
            event.id,
            input.capacity === null ? null : input.capacity - going,
            at
          )
        }
        yield* sql.withTransaction(repo.update(member.communityId, event.id, changes, at)).pipe(
          Effect.catchAll((error) =>
            uniqueViolation(error) === undefined ? Effect.die(error) : Effect.fail(slugTaken())
          )
        )
        const after = yield* find(member.communityId, event.id)
        // a hidden event's participants no longer read it: they are not told of its changes
        if (!after.hidden) yield* notices.changed(event, after)
        yield* notices.confirm(after, promoted)
      }))
      return eventView(yield* find(member.communityId, eventId), true)
    })

    const remove = traced("Events.remove")(function*(member: Member, id: string) {
      const event = yield* managed(member, id)
      const at = yield* now
      yield* transactional(sql)(Effect.gen(function*() {
        yield* repo.softDelete(member.communityId, event.id, at)
        yield* notices.canceled(event)
        yield* webhooks.emit(member.communityId, "event.canceled", {
          ...eventView(event, true),
          canceledAt: at.toISOString()
        })
      }))
    })

    /** The viewer's own participation (the acting profile), if a member. */
    const participationOf = (viewer: Viewer, eventId: string) =>
      Option.match(viewer.member, {
        onNone: () => Effect.succeed(Option.none()),
        onSome: (member) => repo.participation(viewer.communityId, eventId, member.actingProfileId)
      })

    const detail = traced("Events.detail")(function*(viewer: Viewer, identifier: string) {
      const event = yield* Effect.flatMap(findByIdentifier(viewer.communityId, identifier), (row) => seen(viewer, row))
      yield* access.readContent(viewer, event.spaceId)
      const own = yield* participationOf(viewer, event.id)
      const showJoinUrl = isStaffViewer(viewer) || isHost(viewer, event) ||
        Option.exists(own, (row) => row.status === "going")
      return {
        ...eventView(event, showJoinUrl),
        participation: Option.match(own, {
          onNone: () => null,
          onSome: (row) => ({
            status: row.status,
            joinedAt: row.joinedAt.toISOString(),
            checkedInAt: row.checkedInAt === null ? null : row.checkedInAt.toISOString()
          })
        })
      }
    })

    const list = traced("Events.list")(function*(viewer: Viewer, query: EventQuery) {
      const staff = isStaffViewer(viewer)
      const page = yield* paginate(
        query,
        EventCursor,
        (after, limit) =>
          Effect.gen(function*() {
            return yield* repo.list(viewer.communityId, {
              limit,
              after,
              spaceId: query.spaceId?.toLowerCase(),
              endingAfter: query.upcoming === "true" ? yield* now : undefined,
              // hidden events: listed to staff, and to their host
              seer: staff ? "staff" : Option.getOrNull(Option.map(viewer.member, (member) => member.profileId)),
              spaceIds: staff ? undefined : yield* access.readableSpaceIds(viewer)
            })
          }),
        (row) => [row.startTime.toISOString(), row.id]
      )
      return {
        items: page.items.map((row) => eventView(row, staff || isHost(viewer, row))),
        pagination: page.pagination
      }
    })

    /**
     * The participant as staff list them (as `join`/`leave` answer), with `eventId`, to the webhooks:
     * joining (going or waitlisted) or cancelling (with `canceledAt`). Every toggle is a move.
     */
    const told = (communityId: CommunityId, eventId: string, row: ParticipantRow, canceled?: { canceledAt: string }) =>
      webhooks.emit(
        communityId,
        canceled ? "event.participation_canceled" : "event.participation_created",
        { ...participantView(row), eventId, ...canceled }
      )

    /**
     * The toggle, under the event's row lock, taken first: the event, its counts and the caller's
     * participation are read once under it (the seat count cannot change before the transaction ends,
     * so `going` never exceeds the capacity whatever the concurrency), and the answer is built from
     * them and from what the toggle wrote (its counts are those a read would show after it).
     */
    const participate = traced("Events.participate")(function*(member: Member, id: string) {
      const communityId = member.communityId
      const profileId = member.actingProfileId
      const eventId = id.trim().toLowerCase()
      return yield* atomic(sql)(Effect.gen(function*() {
        if (!(yield* repo.lock(communityId, eventId))) return yield* Effect.fail(notFound(M.eventNotFound))
        const locked = yield* orNotFound(M.eventNotFound)(repo.findWithParticipation(communityId, eventId, profileId))
        const event = yield* seen(viewerOfMember(member), locked.event)
        yield* access.readContent(viewerOfMember(member), event.spaceId)
        yield* requireNotSuspended(member)
        const status = Option.getOrUndefined(locked.participation)?.status
        const at = yield* now
        const going = event.going
        const next = nextParticipation(status, event.capacity === null || going < event.capacity)
        const answer = (
          row: ParticipantRow,
          counts: { going: number; waitlisted: number },
          promoted: ReadonlyArray<string>
        ) => ({
          eventId: event.id,
          profileId,
          status: row.status,
          joinedAt: row.joinedAt.toISOString(),
          checkedInAt: row.checkedInAt === null ? null : row.checkedInAt.toISOString(),
          counts,
          promotedProfileIds: promoted
        })
        if (next === "cancelled") {
          const left = yield* repo.leave(communityId, event.id, profileId, at)
          yield* told(communityId, event.id, left, { canceledAt: at.toISOString() })
          if (status !== "going") {
            return answer(left, { going, waitlisted: event.waitlisted - 1 }, [])
          }
          const promoted = yield* repo.promote(
            communityId,
            event.id,
            event.capacity === null ? null : event.capacity - going + 1,
            at
          )
          yield* notices.confirm(event, promoted)
          const counts = { going: going - 1 + promoted.length, waitlisted: event.waitlisted - promoted.length }
          return answer(left, counts, promoted)
        }
        const ticketCode = ticketCodeOf(yield* ids.secret(10))
        const joined = yield* repo.join({ communityId, eventId: event.id, profileId, status: next, ticketCode }, at)
        yield* told(communityId, event.id, joined)
        if (next === "going") yield* notices.confirm(event, [profileId])
        const counts = next === "going"
          ? { going: going + 1, waitlisted: event.waitlisted }
          : { going, waitlisted: event.waitlisted + 1 }
        return answer(joined, counts, [])
      }))
    })

    const participants = traced("Events.participants")(function*(
      viewer: Viewer,
      id: string,
      query: ParticipantQuery
    ) {
      const event = yield* Effect.flatMap(find(viewer.communityId, id), (row) => seen(viewer, row))
      yield* access.readContent(viewer, event.spaceId)
      const counts = { going: event.going, waitlisted: event.waitlisted }
      const visibility = isStaffViewer(viewer) || isHost(viewer, event)
        ? "all" as const
        : Option.isSome(viewer.member)
        ? "going" as const
        : "counts" as const
      const statuses: ReadonlyArray<ParticipantStatus> = visibility === "all"
        ? query.status ? [query.status] : ["going", "waitlisted", "cancelled"]
        : query.status === undefined || query.status === "going"
        ? ["going"]
        : []
      const page = yield* paginate(
        query,
        ParticipantCursor,
        (after, limit) =>
          Effect.gen(function*() {
            if (visibility === "counts") return []
            return yield* repo.participants(viewer.communityId, event.id, { statuses, after, limit })
          }),
        (row) => [row.joinedAt.toISOString(), row.joinSeq]
      )
      return { items: page.items.map(participantView), pagination: page.pagination, counts, visibility }
    })

    const moveStream = (to: StreamStatus) => (member: Member, id: string) =>
      Effect.gen(function*() {
        const event = yield* managed(member, id)
        yield* transactional(sql)(Effect.gen(function*() {
          if (!(yield* repo.lock(member.communityId, event.id))) {
            return yield* Effect.fail(notFound(M.eventNotFound))
          }
          const current = yield* find(member.communityId, event.id)
          yield* checkStreamMove(current.streamStatus, to)
          const at = yield* now
          yield* repo.setStream(
            member.communityId,
            event.id,
            to === "live" ? { streamStatus: to, streamStartedAt: at } : { streamStatus: to, streamEndedAt: at },
            at
          )
        }))
        return eventView(yield* find(member.communityId, event.id), true)
      })

    const startStream = traced("Events.startStream")(function*(member: Member, id: string) {
      return yield* moveStream("live")(member, id)
    })
    const stopStream = traced("Events.stopStream")(function*(member: Member, id: string) {
      return yield* moveStream("ended")(member, id)
    })

    const calendar = traced("Events.calendar")(function*(viewer: Viewer, identifier: string) {
      const { joinUrl, ...event } = yield* detail(viewer, identifier)
      const row = yield* find(viewer.communityId, event.id)
      return { slug: event.slug, ics: icsOf(row, joinUrl, "roda") }
    })

    return { create, update, remove, detail, list, participate, participants, startStream, stopStream, calendar }
  }),
  dependencies: [EventsRepo.Default, EventNotices.Default]
}) {}
