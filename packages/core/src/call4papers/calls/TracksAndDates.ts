import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { type Viewer } from "../../structure/Access"
import { notFoundAs } from "../lookups"
import { CallAccess } from "./CallAccess"
import { CallRoles } from "./CallRoles"
import {
  checkTimes,
  DateCursor,
  type EventDateInput,
  lower,
  onUnique,
  taken,
  TrackCursor,
  type TrackInput
} from "./callRules"
import { CallMessages } from "./messages"
import { CallsRepo, type EventDateFields, type TrackFields } from "./Repo"
import { eventDateView, trackView } from "./view"

/** A call's tracks and its event dates, managed by the call's organisers and read by whoever sees the call. */
export class TracksAndDates extends Effect.Service<TracksAndDates>()("@roda/core/call4papers/TracksAndDates", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CallsRepo
    const roles = yield* CallRoles
    const ids = yield* Ids
    const { managed, managedTrack, organise, seeCall } = yield* CallAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const tracks = traced("Calls.tracks")(function*(viewer: Viewer, id: string, query: PageQuery) {
      const { call } = yield* seeCall(viewer, id)
      const page = yield* paginate(
        query,
        TrackCursor,
        (after, limit) => repo.listTracks(viewer.communityId, call.id, after, limit),
        (row) => [row.position, row.id]
      )
      return { items: page.items.map(trackView), pagination: page.pagination }
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
      const page = yield* paginate(
        query,
        DateCursor,
        (after, limit) => repo.listDates(viewer.communityId, call.id, after, limit),
        (row) => [row.date, row.id]
      )
      return { items: page.items.map(eventDateView), pagination: page.pagination }
    })

    const dayTaken = () => taken("date", CallMessages.eventDateTaken)

    const findDate = (communityId: string, dateId: string) =>
      repo.findDate(communityId, lower(dateId)).pipe(orNotFound(CallMessages.eventDateNotFound))

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
        yield* organise(member, call).pipe(notFoundAs(CallMessages.eventDateNotFound))
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

    return { tracks, createTrack, updateTrack, removeTrack, eventDates, addEventDate, updateEventDate, removeEventDate }
  }),
  dependencies: [CallsRepo.Default, CallAccess.Default, CallRoles.Default]
}) {}
