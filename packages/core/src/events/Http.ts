import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page, requestLanguage } from "../http/Reply"
import { viewerOfVisitor } from "../structure/Access"
import { CheckIns } from "./CheckIns"
import { Events } from "./Events"
import { eventMessages as M } from "./messages"
import { eventCategories } from "./Policy"

const participationMessage = {
  going: M.participationGoing,
  waitlisted: M.participationWaitlisted,
  cancelled: M.participationCancelled
} as const

export const EventsHttp = apiGroup(RodaApi, "events", (handlers) =>
  Effect.gen(function*() {
    const events = yield* Events
    const checkIns = yield* CheckIns
    return handlers
      .handle("categories", () =>
        requestLanguage.pipe(
          Effect.flatMap((language) =>
            ok(
              M.eventCategories,
              eventCategories.map((category) => ({ id: category.id, name: category.name[language] }))
            )
          )
        ))
      .handle("list", ({ urlParams }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => events.list(viewerOfVisitor(visitor), urlParams)),
          Effect.flatMap((result) => page(M.events, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.create(member, payload)),
          Effect.flatMap((data) => ok(M.eventCreated, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => events.detail(viewerOfVisitor(visitor), path.id)),
          Effect.flatMap((data) => ok(M.event, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.eventUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.remove(member, path.id)),
          Effect.zipRight(ok(M.eventDeleted, null))
        ))
      .handle("participate", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.participate(member, path.id)),
          Effect.flatMap((data) => ok(participationMessage[data.status], data))
        ))
      .handle("participants", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const visitor = yield* CurrentVisitor
          const result = yield* events.participants(viewerOfVisitor(visitor), path.id, urlParams)
          const body = yield* page(M.participants, result)
          return { ...body, counts: result.counts, visibility: result.visibility }
        }))
      .handle("checkIn", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => checkIns.checkIn(member, path.id, payload)),
          Effect.flatMap((data) => ok(data.alreadyCheckedIn ? M.alreadyCheckedIn : M.checkedIn, data))
        ))
      .handle("attendance", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const member = yield* CurrentMember
          const result = yield* checkIns.attendance(member, path.id, urlParams)
          const body = yield* page(M.attendance, result)
          return { ...body, counts: result.counts }
        }))
      .handle("startStream", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.startStream(member, path.id)),
          Effect.flatMap((data) => ok(M.streamStarted, data))
        ))
      .handle("stopStream", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => events.stopStream(member, path.id)),
          Effect.flatMap((data) => ok(M.streamStopped, data))
        ))
      .handle("calendar", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => events.calendar(viewerOfVisitor(visitor), path.id)),
          Effect.map(({ ics, slug }) =>
            HttpServerResponse.text(ics, {
              contentType: "text/calendar; charset=utf-8",
              headers: { "content-disposition": `inline; filename="${slug}.ics"` }
            })
          )
        ))
  }))
