import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../../domain/Caller"
import { communityIdOf } from "../../domain/Ids"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { Fees } from "./Fees"
import { Ledger } from "./Ledger"
import { ledgerMessages } from "./messages"

export const FeesHttp = apiGroup(RodaApi, "fees", (handlers) =>
  Effect.gen(function*() {
    const fees = yield* Fees
    return handlers
      .handle("list", () =>
        CurrentMember.pipe(
          Effect.flatMap(fees.list),
          Effect.flatMap((data) => ok(ledgerMessages.fees, data))
        ))
      .handle("simulate", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => fees.simulate(member, payload)),
          Effect.flatMap((data) => ok(ledgerMessages.simulation, data))
        ))
  }))

export const FeeOverridesHttp = apiGroup(RodaApi, "feeOverrides", (handlers) =>
  Effect.gen(function*() {
    const fees = yield* Fees
    return handlers
      .handle("set", ({ path, payload }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => fees.setOverride(account, communityIdOf(path.communityId), path.method, payload)),
          Effect.flatMap((data) => ok(ledgerMessages.feeOverrideSaved, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => fees.removeOverride(account, communityIdOf(path.communityId), path.method)),
          Effect.flatMap((data) => ok(ledgerMessages.feeOverrideRemoved, data))
        ))
  }))

export const LedgerHttp = apiGroup(RodaApi, "ledger", (handlers) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger
    return handlers
      .handle("entries", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => ledger.statement(member, urlParams)),
          Effect.flatMap((result) => page(ledgerMessages.statement, result))
        ))
      .handle("balance", () =>
        CurrentMember.pipe(
          Effect.flatMap(ledger.balance),
          Effect.flatMap((data) => ok(ledgerMessages.balance, data))
        ))
  }))
