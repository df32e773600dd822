import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page } from "../http/Reply"
import { MemberBans } from "./Bans"
import { Cases } from "./Cases"
import { MemberActions } from "./Members"
import { moderationMessages as M } from "./messages"
import { PendingQueue } from "./Pending"
import { Reports } from "./Reports"

export const ModerationHttp = apiGroup(RodaApi, "moderation", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* Reports
    const cases = yield* Cases
    const members = yield* MemberActions
    const pending = yield* PendingQueue
    const bans = yield* MemberBans
    return handlers
      .handle("report", ({ payload }) =>
        Effect.gen(function*() {
          const data = yield* reports.report(yield* CurrentMember, payload)
          // 201 for a new report, 200 for the reporter's earlier one (the schema tells them apart).
          return data.alreadyReported ? yield* ok(M.reportExists, data) : yield* ok(M.reportCreated, data)
        }))
      .handle("cases", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => cases.list(member, urlParams)),
          Effect.flatMap((result) => page(M.cases, result))
        ))
      .handle("resolve", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => cases.resolve(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.caseResolved, data))
        ))
      .handle("log", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => cases.log(member, urlParams)),
          Effect.flatMap((result) => page(M.log, result))
        ))
      .handle("suspend", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => members.suspend(member, path.profileId, payload)),
          Effect.flatMap((data) => ok(M.memberSuspended, data))
        ))
      .handle("unsuspend", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => members.unsuspend(member, path.profileId)),
          Effect.flatMap((data) => ok(M.memberUnsuspended, data))
        ))
      .handle("ban", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => bans.ban(member, path.profileId, payload.reason)),
          Effect.flatMap((data) => ok(M.memberBanned, data))
        ))
      .handle("unban", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => bans.unban(member, path.profileId)),
          Effect.flatMap((data) => ok(M.memberUnbanned, data))
        ))
      .handle("pending", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => pending.list(member, urlParams)),
          Effect.flatMap((result) => page(M.pending, result))
        ))
      .handle("approvePending", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => pending.approve(member, path.id)),
          Effect.flatMap((data) => ok(M.pendingApproved, data))
        ))
      .handle("rejectPending", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => pending.reject(member, path.id)),
          Effect.flatMap((data) => ok(M.pendingRejected, data))
        ))
  }))
