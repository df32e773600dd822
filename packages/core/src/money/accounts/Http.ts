import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../../domain/Caller"
import { communityIdOf } from "../../domain/Ids"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, requestLanguage } from "../../http/Reply"
import { type Decision, SellingAccounts } from "./Accounts"
import { accountsMessages as M } from "./messages"

export const BusinessInformationHttp = apiGroup(
  RodaApi,
  "businessInformation",
  (handlers) =>
    Effect.gen(function*() {
      const accounts = yield* SellingAccounts
      return handlers
        .handle("read", () =>
          CurrentMember.pipe(
            Effect.flatMap(accounts.business),
            Effect.flatMap((data) => ok(M.businessInformation, data))
          ))
        .handle("save", ({ payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => accounts.saveBusiness(member, payload)),
            Effect.flatMap((data) => ok(M.businessInformationSaved, data))
          ))
        .handle("submit", () =>
          CurrentMember.pipe(
            Effect.flatMap((member) => accounts.submitBusiness(member)),
            Effect.flatMap((data) => ok(M.businessInformationSubmitted, data))
          ))
    })
)

export const PayoutSettingsHttp = apiGroup(RodaApi, "payoutSettings", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* SellingAccounts
    return handlers
      .handle("read", () =>
        CurrentMember.pipe(Effect.flatMap(accounts.payout), Effect.flatMap((data) => ok(M.payoutSettings, data))))
      .handle("save", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            accounts.savePayout(member, payload)
          ),
          Effect.flatMap((data) => ok(M.payoutSettingsSaved, data))
        ))
      .handle("submit", () =>
        CurrentMember.pipe(
          Effect.flatMap((member) => accounts.submitPayout(member)),
          Effect.flatMap((data) => ok(M.payoutSettingsSubmitted, data))
        ))
      .handle("status", () =>
        CurrentMember.pipe(
          Effect.flatMap(accounts.payoutStatus),
          Effect.flatMap((data) => ok(M.payoutStatus, data))
        ))
      .handle("prerequisites", () =>
        Effect.gen(function*() {
          const items = yield* Effect.flatMap(CurrentMember, accounts.prerequisites)
          const language = yield* requestLanguage
          return yield* ok(M.prerequisites, items.map((item) => ({ code: item.code, message: item.message[language] })))
        }))
  }))

export const SellingReviewHttp = apiGroup(RodaApi, "sellingReview", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* SellingAccounts
    const business = (communityId: string, decision: Decision) =>
      Effect.flatMap(
        CurrentAccount,
        (account) => accounts.reviewBusiness(account, communityIdOf(communityId), decision)
      )
    const payout = (communityId: string, decision: Decision) =>
      Effect.flatMap(CurrentAccount, (account) => accounts.reviewPayout(account, communityIdOf(communityId), decision))
    return handlers
      .handle("approveBusiness", ({ path }) =>
        business(path.communityId, { approve: true }).pipe(
          Effect.flatMap((data) => ok(M.businessInformationApproved, data))
        ))
      .handle("rejectBusiness", ({ path, payload }) =>
        business(path.communityId, { approve: false, reason: payload.reason }).pipe(
          Effect.flatMap((data) =>
            ok(M.businessInformationRejected, data)
          )
        ))
      .handle("approvePayout", ({ path }) =>
        payout(path.communityId, { approve: true }).pipe(
          Effect.flatMap((data) => ok(M.payoutSettingsApproved, data))
        ))
      .handle("rejectPayout", ({ path, payload }) =>
        payout(path.communityId, { approve: false, reason: payload.reason }).pipe(
          Effect.flatMap((data) =>
            ok(M.payoutSettingsRejected, data)
          )
        ))
  }))
