import type { Text } from "../../domain/Text"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Option, Schema } from "effect"
import { Memberships } from "../../communities/Memberships"
import { type AppError, conflict, fieldError, forbidden, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { slugify } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { CursorPart, decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { isStaff, staffRoles } from "../../domain/Role"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { traced } from "../../platform/traced"
import { uniqueViolation } from "../../sql/errors"
import { insertWithFreeSlug } from "../../sql/freeSlug"
import { transactional } from "../../sql/transaction"
import { Access, type Viewer, viewerOfMember } from "../../structure/Access"
import { CallRoles, type CallRolesOf, type CallRow, isPublicCall } from "./CallRoles"
import { CallMessages } from "./messages"
import {
  type CallMove,
  callMoves,
  type CallStatus,
  checkCallMove,
  checkCallStatus,
  checkInvitationMove,
  defaultSpaceMode,
  type InvitationStatus,
  requireOrganiser,
  type SpaceMode
} from "./Policy"
import { type CallFields, CallsRepo, type EventDateFields, type TrackFields } from "./Repo"
import { callView, eventDateView, invitationView, ownerView, reviewerView, trackView } from "./view"

const TimeCursor = Schema.Tuple(CursorPart.timestamp, Uuid)
const TrackCursor = Schema.Tuple(CursorPart.int4, Uuid)
const DateCursor = Schema.Tuple(Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)), Uuid)

export interface CallChangesInput {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  readonly description?: string | null | undefined
  readonly opensAt?: string | null | undefined
  readonly closesAt?: string | null | undefined
  readonly communityVoting?: boolean | undefined
  readonly anonymousReviews?: boolean | undefined
}

export interface NewCallInput extends CallChangesInput {
  readonly spaceId?: string | null | undefined
  readonly title: string
}

export interface TrackInput {
  readonly name?: string | undefined
  readonly description?: string | null | undefined
  readonly color?: string | null | undefined
  readonly position?: number | undefined
}

export interface EventDateInput {
  readonly date?: string | undefined
  readonly label?: string | null | undefined
  readonly startTime?: string | null | undefined
  readonly endTime?: string | null | undefined
}

export interface CallQuery extends PageQuery {
  readonly status?: CallStatus | undefined
}

const lower = (id: string) => id.trim().toLowerCase()

const checkCallDates = (call: { readonly opensAt: Date | null; readonly closesAt: Date | null }) =>
  call.opensAt !== null && call.closesAt !== null && call.opensAt.getTime() >= call.closesAt.getTime()
    ? Effect.fail(invalidField("closesAt", CallMessages.callDatesOrder))
    : Effect.void

const checkTimes = (fields: EventDateFields) =>
  fields.startTime !== null && fields.endTime !== null && fields.startTime >= fields.endTime
    ? Effect.fail(invalidField("endTime", CallMessages.eventTimesOrder))
    : Effect.void

const taken = (param: string, message: Text) => conflict(message, [fieldError(param, message)])

/** Fails with `error()` instead of a unique violation; other SQL errors are defects. */
const onUnique = (error: () => AppError) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchAll(
    effect,
    (cause): Effect.Effect<never, AppError | Exclude<E, SqlError>> =>
      uniqueViolation(cause) !== undefined
        ? Effect.fail(error())
        : cause instanceof SqlError
        ? Effect.die(cause)
        : Effect.fail(cause as Exclude<E, SqlError>)
  )

/**
 * Calls for papers, first half: the space configuration, calls and their lifecycle
 * (design/states.md "Call for papers"), tracks, event dates, owners and track reviewers.
 */
export class Calls extends Effect.Service<Calls>()("@roda/core/call4papers/Calls", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CallsRepo
    const roles = yield* CallRoles
    const access = yield* Access
    const memberships = yield* Memberships
    const mailer = yield* Mailer
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    // ---- spaces

    /** The space if it is a call4papers space the viewer may see; 404 otherwise. */
    const callSpace = (viewer: Viewer, spaceId: string, read: boolean) =>
      Effect.gen(function*() {
        const space = read
          ? yield* access.readContent(viewer, lower(spaceId))
          : yield* access.space(viewer, lower(spaceId))
        if (space.module !== "call4papers") return yield* Effect.fail(notFound(CallMessages.notACallSpace))
        return space
      })

    const modeOf = (communityId: string, spaceId: string) =>
      Effect.map(repo.spaceMode(communityId, spaceId), (row) => ({
        mode: Option.match(row, { onNone: () => defaultSpaceMode, onSome: (value) => value.mode }),
        updatedAt: Option.match(row, { onNone: () => null, onSome: (value) => value.updatedAt.toISOString() })
      }))

    const spaceConfig = traced("Calls.spaceConfig")(function*(viewer: Viewer, spaceId: string) {
      const space = yield* callSpace(viewer, spaceId, false)
      const { mode, updatedAt } = yield* modeOf(viewer.communityId, space.spaceId)
      const member = Option.getOrUndefined(viewer.member)
      const staff = member !== undefined && isStaff(member.role)
      return {
        spaceId: space.spaceId,
        mode,
        canOpenCall: member !== undefined && (staff || mode === "members"),
        canConfigure: staff,
        updatedAt
      }
    })

    const configureSpace = traced("Calls.configureSpace")(function*(
      member: Member,
      spaceId: string,
      mode: SpaceMode
    ) {
      const space = yield* callSpace(viewerOfMember(member), spaceId, false)
      yield* requireRole(member, staffRoles)
      yield* repo.setSpaceMode(member.communityId, space.spaceId, mode, yield* now)
      return yield* spaceConfig(viewerOfMember(member), space.spaceId)
    })

    // ---- calls

    /** The call as the viewer may see it: its space readable, a draft only for organisers (404). */
    const visibleCall = (viewer: Viewer, call: CallRow) =>
      Effect.gen(function*() {
        const callerRoles = yield* roles.rolesOf(call, viewer.member)
        if (!isPublicCall(call) && !callerRoles.organiser) {
          return yield* Effect.fail(notFound(CallMessages.callNotFound))
        }
        if (!callerRoles.organiser) yield* access.readContent(viewer, call.spaceId)
        return callerRoles
      })

    const seeCall = (viewer: Viewer, id: string) =>
      Effect.gen(function*() {
        const call = yield* roles.callFor(viewer.communityId, id)
        const callerRoles = yield* visibleCall(viewer, call)
        return { call, roles: callerRoles }
      })

    /** The call for one of its organisers: 404 when the member may not even see it, else 403. */
    const organise = (member: Member, call: CallRow) =>
      Effect.gen(function*() {
        const callerRoles = yield* roles.rolesOf(call, member)
        if (!callerRoles.organiser) {
          if (!isPublicCall(call)) return yield* Effect.fail(notFound(CallMessages.callNotFound))
          yield* requireOrganiser(callerRoles)
        }
        return callerRoles
      })

    const managed = (member: Member, id: string) =>
      Effect.gen(function*() {
        const call = yield* roles.callFor(member.communityId, id)
        yield* organise(member, call)
        return call
      })

    const detailOf = (call: CallRow, callerRoles: CallRolesOf) =>
      Effect.map(now, (at) => ({
        ...callView(call, at),
        viewer: {
          organiser: callerRoles.organiser,
          owner: callerRoles.owner,
          reviewerTrackIds: callerRoles.reviewerTrackIds
        }
      }))

    const spaceCalls = traced("Calls.spaceCalls")(function*(viewer: Viewer, spaceId: string, query: CallQuery) {
      const space = yield* callSpace(viewer, spaceId, true)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, TimeCursor)
      const member = Option.getOrUndefined(viewer.member)
      const rows = yield* repo.listCalls(viewer.communityId, space.spaceId, {
        all: member !== undefined && isStaff(member.role),
        ownerProfileId: member?.profileId,
        status: query.status,
        after,
        limit
      })
      const page = toPage(rows, limit, (row) => [row.createdAt.toISOString(), row.id])
      const at = yield* now
      return { items: page.items.map((row) => callView(row, at)), pagination: page.pagination }
    })

    const callBySlug = traced("Calls.callBySlug")(function*(viewer: Viewer, spaceId: string, slug: string) {
      const space = yield* callSpace(viewer, spaceId, true)
      const call = yield* repo.findBySlug(viewer.communityId, space.spaceId, slug.trim().toLowerCase()).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound(CallMessages.callNotFound)),
          onSome: Effect.succeed
        }))
      )
      return yield* detailOf(call, yield* visibleCall(viewer, call))
    })

    const detail = traced("Calls.detail")(function*(viewer: Viewer, id: string) {
      const { call, roles: callerRoles } = yield* seeCall(viewer, id)
      return yield* detailOf(call, callerRoles)
    })

    const open = traced("Calls.open")(function*(member: Member, input: NewCallInput) {
      const spaceId = input.spaceId?.trim().toLowerCase() ?? ""
      if (spaceId === "") return yield* Effect.fail(invalidField("spaceId", CallMessages.spaceIdRequired))
      const space = yield* access.readContent(viewerOfMember(member), spaceId).pipe(
        Effect.catchIf(
          (error) => error.status === 404,
          () => Effect.fail(invalidField("spaceId", CallMessages.spaceNotFound))
        )
      )
      if (space.module !== "call4papers") return yield* Effect.fail(invalidField("spaceId", CallMessages.notACallSpace))
      const { mode } = yield* modeOf(member.communityId, space.spaceId)
      if (mode !== "members") yield* requireRole(member, staffRoles)
      const fields: CallFields = {
        title: input.title,
        slug: input.slug ?? (slugify(input.title) || "chamada"),
        description: input.description ?? null,
        opensAt: input.opensAt ? new Date(input.opensAt) : null,
        closesAt: input.closesAt ? new Date(input.closesAt) : null,
        communityVoting: input.communityVoting ?? false,
        anonymousReviews: input.anonymousReviews ?? false
      }
      yield* checkCallDates(fields)
      const id = yield* ids.next
      const at = yield* now
      yield* transactional(sql)(Effect.gen(function*() {
        yield* insertWithFreeSlug({
          sql,
          slug: fields.slug,
          generated: input.slug === undefined,
          insert: (slug) =>
            repo.insertCall({
              ...fields,
              slug,
              id,
              communityId: member.communityId,
              spaceId: space.spaceId,
              createdByProfileId: member.profileId,
              createdAt: at,
              updatedAt: at
            }),
          randomSuffix: ids.next
        }).pipe(
          Effect.catchIf((error) => error.status === 409, () => Effect.fail(taken("slug", CallMessages.slugTaken)))
        )
        yield* repo.inviteOwner({
          id: yield* ids.next,
          communityId: member.communityId,
          callId: id,
          profileId: member.profileId,
          status: "accepted",
          invitedByProfileId: member.profileId
        }, at)
      }))
      return callView(yield* roles.callFor(member.communityId, id), at)
    })

    const update = traced("Calls.update")(function*(member: Member, id: string, input: CallChangesInput) {
      const call = yield* managed(member, id)
      const changes: { -readonly [K in keyof CallFields]?: CallFields[K] } = {}
      if (input.title !== undefined) changes.title = input.title
      if (input.slug !== undefined) changes.slug = input.slug
      if (input.description !== undefined) changes.description = input.description
      if (input.opensAt !== undefined) changes.opensAt = input.opensAt === null ? null : new Date(input.opensAt)
      if (input.closesAt !== undefined) changes.closesAt = input.closesAt === null ? null : new Date(input.closesAt)
      if (input.communityVoting !== undefined) changes.communityVoting = input.communityVoting
      if (input.anonymousReviews !== undefined) changes.anonymousReviews = input.anonymousReviews
      yield* checkCallDates({ ...call, ...changes })
      const at = yield* now
      if (Object.keys(changes).length > 0) {
        yield* sql.withTransaction(repo.updateCall(member.communityId, call.id, changes, at)).pipe(
          onUnique(() => taken("slug", CallMessages.slugTaken))
        )
      }
      return callView(yield* roles.callFor(member.communityId, call.id), at)
    })

    const remove = traced("Calls.remove")(function*(member: Member, id: string) {
      const call = yield* managed(member, id)
      yield* repo.softDeleteCall(member.communityId, call.id, yield* now)
    })

    /** A status change under the call's row lock, so two concurrent moves settle one after the other. */
    const changeStatus = (
      member: Member,
      id: string,
      check: (from: CallStatus) => Effect.Effect<void, AppError>,
      to: CallStatus
    ) =>
      Effect.gen(function*() {
        const call = yield* managed(member, id)
        const at = yield* now
        yield* transactional(sql)(Effect.gen(function*() {
          const locked = yield* roles.lockCall(member.communityId, call.id)
          yield* check(locked.status)
          yield* repo.setCallStatus(member.communityId, call.id, to, at)
        }))
        return callView(yield* roles.callFor(member.communityId, call.id), at)
      })

    const setStatus = traced("Calls.setStatus")(function*(member: Member, id: string, status: CallStatus) {
      return yield* changeStatus(member, id, (from) => checkCallStatus(from, status), status)
    })

    const move = traced("Calls.move")(function*(member: Member, id: string, name: CallMove) {
      return yield* changeStatus(member, id, (from) => checkCallMove(from, name), callMoves[name].to)
    })

    // ---- tracks

    const tracks = traced("Calls.tracks")(function*(viewer: Viewer, id: string, query: PageQuery) {
      const { call } = yield* seeCall(viewer, id)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, TrackCursor)
      const rows = yield* repo.listTracks(viewer.communityId, call.id, after, limit)
      const page = toPage(rows, limit, (row) => [row.position, row.id])
      return { items: page.items.map(trackView), pagination: page.pagination }
    })

    /** The track (of a live call) for one of the call's organisers. */
    const managedTrack = (member: Member, trackId: string) =>
      Effect.gen(function*() {
        const track = yield* repo.findTrack(member.communityId, lower(trackId)).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound(CallMessages.trackNotFound)),
            onSome: Effect.succeed
          }))
        )
        const call = yield* roles.callFor(member.communityId, track.callId)
        yield* organise(member, call).pipe(
          Effect.catchIf((error) => error.status === 404, () => Effect.fail(notFound(CallMessages.trackNotFound)))
        )
        return { track, call }
      })

    const trackNameTaken = () => taken("name", CallMessages.trackNameTaken)

    const createTrack = traced("Calls.createTrack")(function*(member: Member, id: string, input: TrackInput) {
      const call = yield* managed(member, id)
      const trackId = yield* ids.next
      const at = yield* now
      yield* transactional(sql)(Effect.gen(function*() {
        yield* roles.lockCall(member.communityId, call.id)
        const position = input.position ?? (yield* repo.nextTrackPosition(member.communityId, call.id))
        yield* sql.withTransaction(repo.insertTrack({
          id: trackId,
          communityId: member.communityId,
          callId: call.id,
          name: input.name ?? "",
          description: input.description ?? null,
          color: input.color ?? null,
          position,
          createdAt: at,
          updatedAt: at
        })).pipe(onUnique(trackNameTaken))
      }))
      return trackView(yield* repo.findTrack(member.communityId, trackId).pipe(Effect.map(Option.getOrThrow)))
    })

    const updateTrack = traced("Calls.updateTrack")(function*(member: Member, trackId: string, input: TrackInput) {
      const { track } = yield* managedTrack(member, trackId)
      const changes: { -readonly [K in keyof TrackFields]?: TrackFields[K] } = {}
      if (input.name !== undefined) changes.name = input.name
      if (input.description !== undefined) changes.description = input.description
      if (input.color !== undefined) changes.color = input.color
      if (input.position !== undefined) changes.position = input.position
      if (Object.keys(changes).length > 0) {
        yield* sql.withTransaction(repo.updateTrack(member.communityId, track.id, changes, yield* now)).pipe(
          onUnique(trackNameTaken)
        )
      }
      return trackView(yield* repo.findTrack(member.communityId, track.id).pipe(Effect.map(Option.getOrThrow)))
    })

    const removeTrack = traced("Calls.removeTrack")(function*(member: Member, trackId: string) {
      const { track } = yield* managedTrack(member, trackId)
      yield* repo.softDeleteTrack(member.communityId, track.id, yield* now)
    })

    // ---- event dates

    const eventDates = traced("Calls.eventDates")(function*(viewer: Viewer, id: string, query: PageQuery) {
      const { call } = yield* seeCall(viewer, id)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, DateCursor)
      const rows = yield* repo.listDates(viewer.communityId, call.id, after, limit)
      const page = toPage(rows, limit, (row) => [row.date, row.id])
      return { items: page.items.map(eventDateView), pagination: page.pagination }
    })

    const dayTaken = () => taken("date", CallMessages.eventDateTaken)

    const findDate = (communityId: string, dateId: string) =>
      repo.findDate(communityId, lower(dateId)).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound(CallMessages.eventDateNotFound)),
          onSome: Effect.succeed
        }))
      )

    const addEventDate = traced("Calls.addEventDate")(function*(member: Member, id: string, input: EventDateInput) {
      const call = yield* managed(member, id)
      const fields: EventDateFields = {
        date: input.date ?? "",
        label: input.label ?? null,
        startTime: input.startTime ?? null,
        endTime: input.endTime ?? null
      }
      yield* checkTimes(fields)
      const dateId = yield* ids.next
      const at = yield* now
      yield* sql.withTransaction(
        repo.insertDate({
          ...fields,
          id: dateId,
          communityId: member.communityId,
          callId: call.id,
          createdAt: at,
          updatedAt: at
        })
      ).pipe(onUnique(dayTaken))
      return eventDateView(yield* findDate(member.communityId, dateId))
    })

    const managedDate = (member: Member, dateId: string) =>
      Effect.gen(function*() {
        const row = yield* findDate(member.communityId, dateId)
        const call = yield* roles.callFor(member.communityId, row.callId)
        yield* organise(member, call).pipe(
          Effect.catchIf((error) => error.status === 404, () => Effect.fail(notFound(CallMessages.eventDateNotFound)))
        )
        return row
      })

    const updateEventDate = traced("Calls.updateEventDate")(function*(
      member: Member,
      dateId: string,
      input: EventDateInput
    ) {
      const row = yield* managedDate(member, dateId)
      const fields: EventDateFields = {
        date: input.date ?? row.date,
        label: input.label !== undefined ? input.label : row.label,
        startTime: input.startTime !== undefined ? input.startTime : row.startTime,
        endTime: input.endTime !== undefined ? input.endTime : row.endTime
      }
      yield* checkTimes(fields)
      yield* sql.withTransaction(repo.updateDate(member.communityId, row.id, fields, yield* now)).pipe(
        onUnique(dayTaken)
      )
      return eventDateView(yield* findDate(member.communityId, row.id))
    })

    const removeEventDate = traced("Calls.removeEventDate")(function*(member: Member, dateId: string) {
      const row = yield* managedDate(member, dateId)
      yield* repo.deleteDate(member.communityId, row.id)
    })

    // ---- invitations (owners and track reviewers)

    /** The invitee: a live, accepted profile of the community (400 `profileId` otherwise). */
    const invitee = (communityId: string, profileId: string) =>
      memberships.recipients(communityId, [lower(profileId)]).pipe(
        Effect.flatMap((found) =>
          found[0] === undefined
            ? Effect.fail(invalidField("profileId", CallMessages.profileNotFound))
            : Effect.succeed(found[0])
        )
      )

    const owners = traced("Calls.owners")(function*(member: Member, id: string, query: PageQuery) {
      const call = yield* managed(member, id)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, TimeCursor)
      const rows = yield* repo.listOwners(member.communityId, call.id, after, limit)
      const page = toPage(rows, limit, (row) => [row.invitedAt.toISOString(), row.id])
      return { items: page.items.map(ownerView), pagination: page.pagination }
    })

    const inviteOwner = traced("Calls.inviteOwner")(function*(member: Member, id: string, profileId: string) {
      const call = yield* managed(member, id)
      const person = yield* invitee(member.communityId, profileId)
      const invited = yield* repo.inviteOwner({
        id: yield* ids.next,
        communityId: member.communityId,
        callId: call.id,
        profileId: person.profileId,
        status: "pending",
        invitedByProfileId: member.profileId
      }, yield* now)
      if (Option.isNone(invited)) return yield* Effect.fail(taken("profileId", CallMessages.alreadyOwner))
      yield* mailer.send({
        to: person.email,
        kind: "call4papers-owner-invitation",
        communityId: member.communityId,
        subject: `Convite para organizar a chamada "${call.title}" / Invitation to own the call "${call.title}"`,
        text:
          `Olá, ${person.fullName}!\n\nVocê foi convidado(a) para organizar a chamada de trabalhos "${call.title}".\n` +
          `Veja e responda em GET /api/call4papers/me/invitations (convite ${invited.value}).\n\n` +
          `You were invited to own the call for papers "${call.title}". ` +
          `See and answer it in GET /api/call4papers/me/invitations (invitation ${invited.value}).\n`
      })
      return { id: invited.value }
    })

    /** An invitation answered by the invited person; concurrent answers settle once (conditional update). */
    const answer = <Row extends { readonly id: string; readonly profileId: string; readonly status: InvitationStatus }>(
      member: Member,
      find: () => Effect.Effect<Row, AppError>,
      write: (status: InvitationStatus, at: Date) => Effect.Effect<boolean>,
      to: InvitationStatus
    ) =>
      Effect.gen(function*() {
        const row = yield* find()
        if (row.profileId !== member.profileId) return yield* Effect.fail(forbidden(CallMessages.invitationNotYours))
        yield* checkInvitationMove(row.status, to)
        if (!(yield* write(to, yield* now))) {
          const current = yield* find()
          yield* checkInvitationMove(current.status, to)
        }
        return yield* find()
      })

    const findOwner = (communityId: string, ownerId: string) =>
      repo.findOwner(communityId, lower(ownerId)).pipe(
        Effect.flatMap(
          Option.match({ onNone: () => Effect.fail(notFound(CallMessages.ownerNotFound)), onSome: Effect.succeed })
        )
      )

    const answerOwner = traced("Calls.answerOwner")(function*(
      member: Member,
      ownerId: string,
      to: "accepted" | "declined"
    ) {
      const row = yield* answer(
        member,
        () => findOwner(member.communityId, ownerId),
        (status, at) => repo.answerOwner(member.communityId, lower(ownerId), status, at),
        to
      )
      return ownerView(row)
    })

    const removeOwner = traced("Calls.removeOwner")(function*(member: Member, ownerId: string) {
      const row = yield* findOwner(member.communityId, ownerId)
      const call = yield* roles.callFor(member.communityId, row.callId)
      if (row.profileId !== member.profileId) {
        yield* organise(member, call).pipe(
          Effect.catchIf((error) => error.status === 404, () => Effect.fail(notFound(CallMessages.ownerNotFound)))
        )
      }
      yield* repo.deleteOwner(member.communityId, row.id)
    })

    const reviewers = traced("Calls.reviewers")(function*(member: Member, trackId: string, query: PageQuery) {
      const { track } = yield* managedTrack(member, trackId)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, TimeCursor)
      const rows = yield* repo.listReviewers(member.communityId, track.id, after, limit)
      const page = toPage(rows, limit, (row) => [row.invitedAt.toISOString(), row.id])
      return { items: page.items.map(reviewerView), pagination: page.pagination }
    })

    const inviteReviewer = traced("Calls.inviteReviewer")(function*(
      member: Member,
      trackId: string,
      profileId: string
    ) {
      const { track, call } = yield* managedTrack(member, trackId)
      const person = yield* invitee(member.communityId, profileId)
      const invited = yield* repo.inviteReviewer(
        {
          id: yield* ids.next,
          communityId: member.communityId,
          callId: call.id,
          trackId: track.id,
          profileId: person.profileId
        },
        member.profileId,
        yield* now
      )
      if (Option.isNone(invited)) return yield* Effect.fail(taken("profileId", CallMessages.alreadyReviewer))
      yield* mailer.send({
        to: person.email,
        kind: "call4papers-reviewer-invitation",
        communityId: member.communityId,
        subject: `Convite para avaliar a trilha "${track.name}" / Invitation to review the track "${track.name}"`,
        text: `Olá, ${person.fullName}!\n\nVocê foi convidado(a) para avaliar as propostas da trilha "${track.name}" ` +
          `da chamada "${call.title}".\nVeja e responda em GET /api/call4papers/me/invitations (convite ${invited.value}).\n\n` +
          `You were invited to review the proposals of the track "${track.name}" of the call "${call.title}". ` +
          `See and answer it in GET /api/call4papers/me/invitations (invitation ${invited.value}).\n`
      })
      return { id: invited.value }
    })

    const findReviewer = (communityId: string, reviewerId: string) =>
      repo.findReviewer(communityId, lower(reviewerId)).pipe(
        Effect.flatMap(
          Option.match({ onNone: () => Effect.fail(notFound(CallMessages.reviewerNotFound)), onSome: Effect.succeed })
        )
      )

    const answerReviewer = traced("Calls.answerReviewer")(function*(
      member: Member,
      reviewerId: string,
      to: "accepted" | "declined"
    ) {
      const row = yield* answer(
        member,
        () => findReviewer(member.communityId, reviewerId),
        (status, at) => repo.answerReviewer(member.communityId, lower(reviewerId), status, at),
        to
      )
      return reviewerView(row)
    })

    const removeReviewer = traced("Calls.removeReviewer")(function*(member: Member, reviewerId: string) {
      const row = yield* findReviewer(member.communityId, reviewerId)
      const call = yield* roles.callFor(member.communityId, row.callId)
      if (row.profileId !== member.profileId) {
        yield* organise(member, call).pipe(
          Effect.catchIf((error) => error.status === 404, () => Effect.fail(notFound(CallMessages.reviewerNotFound)))
        )
      }
      yield* repo.deleteReviewer(member.communityId, row.id)
    })

    const myInvitations = traced("Calls.myInvitations")(function*(member: Member, query: PageQuery) {
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, TimeCursor)
      const rows = yield* repo.pendingInvitations(member.communityId, member.profileId, after, limit)
      const page = toPage(rows, limit, (row) => [row.invitedAt.toISOString(), row.id])
      return { items: page.items.map(invitationView), pagination: page.pagination }
    })

    return {
      spaceConfig,
      configureSpace,
      spaceCalls,
      callBySlug,
      detail,
      open,
      update,
      remove,
      setStatus,
      move,
      tracks,
      createTrack,
      updateTrack,
      removeTrack,
      eventDates,
      addEventDate,
      updateEventDate,
      removeEventDate,
      owners,
      inviteOwner,
      answerOwner,
      removeOwner,
      reviewers,
      inviteReviewer,
      answerReviewer,
      removeReviewer,
      myInvitations
    }
  }),
  dependencies: [CallsRepo.Default, CallRoles.Default]
}) {}
