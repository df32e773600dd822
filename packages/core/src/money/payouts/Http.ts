import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../../domain/Caller"
import { communityIdOf } from "../../domain/Ids"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { payoutMessages as M } from "./messages"
import { Payouts } from "./Payouts"

export const PayoutsHttp = apiGroup(RodaApi, "payouts", (handlers) =>
  Effect.gen(function*() {
    const payouts = yield* Payouts
    return handlers
      .handle("balance", () =>
        CurrentMember.pipe(Effect.flatMap(payouts.balance), Effect.flatMap((data) => ok(M.balance, data))))
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            payouts.list(member, urlParams)
          ),
          Effect.flatMap((result) => page(M.list, result))
        ))
      .handle("request", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => payouts.request(member, payload)),
          Effect.flatMap((data) => ok(M.requested, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => payouts.detail(member, path.id)),
          Effect.flatMap((data) => ok(M.found, data))
        ))
      .handle("cancel", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => payouts.cancel(member, path.id)),
          Effect.flatMap((data) => ok(M.canceled, data))
        ))
  }))

export const PayoutOperationsHttp = apiGroup(
  RodaApi,
  "payoutOperations",
  (handlers) =>
    Effect.gen(function*() {
      const payouts = yield* Payouts
      return handlers
        .handle("list", ({ path, urlParams }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) => payouts.operatorList(account, communityIdOf(path.communityId), urlParams)),
            Effect.flatMap((result) => page(M.list, result))
          ))
        .handle("inTransit", ({ path }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) =>
              payouts.operate(account, communityIdOf(path.communityId), path.id, "in_transit")
            ),
            Effect.flatMap((data) => ok(M.inTransit, data))
          ))
        .handle("paid", ({ path }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) => payouts.operate(account, communityIdOf(path.communityId), path.id, "paid")),
            Effect.flatMap((data) => ok(M.paid, data))
          ))
        .handle("failed", ({ path, payload }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) =>
              payouts.operate(account, communityIdOf(path.communityId), path.id, "failed", payload.reason)
            ),
            Effect.flatMap((data) => ok(M.failed, data))
          ))
    })
)
