import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok } from "../http/Reply"
import { reportMessages as M } from "./messages"
import { Reports } from "./Reports"

export const ReportsHttp = apiGroup(RodaApi, "reports", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* Reports
    return handlers
      .handle("sales", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.sales(member, urlParams)),
          Effect.flatMap((data) => ok(M.sales, data))
        ))
      .handle("subscriptions", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.subscriptions(member, urlParams)),
          Effect.flatMap((data) => ok(M.subscriptions, data))
        ))
      .handle("members", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.members(member, urlParams)),
          Effect.flatMap((data) => ok(M.members, data))
        ))
      .handle("engagement", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.engagement(member, urlParams)),
          Effect.flatMap((data) => ok(M.engagement, data))
        ))
      .handle("events", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.events(member, urlParams)),
          Effect.flatMap((data) => ok(M.events, data))
        ))
      .handle("courses", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.courses(member, urlParams)),
          Effect.flatMap((data) => ok(M.courses, data))
        ))
      .handle("overview", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.overview(member, urlParams)),
          Effect.flatMap((data) => ok(M.overview, data))
        ))
      .handle("memberActivity", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.memberActivity(member, path.profileId, urlParams)),
          Effect.flatMap((data) => ok(M.memberActivity, data))
        ))
      .handle("emailStats", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => reports.emailStats(member, urlParams)),
          Effect.flatMap((data) => ok(M.emailStats, data))
        ))
  }))
