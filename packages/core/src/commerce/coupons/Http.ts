import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page, requestLanguage } from "../../http/Reply"
import { Coupons } from "./Coupons"
import { couponMessages } from "./messages"

export const CouponsHttp = apiGroup(RodaApi, "coupons", (handlers) =>
  Effect.gen(function*() {
    const coupons = yield* Coupons
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.list(member, urlParams)),
          Effect.flatMap((result) => page(couponMessages.coupons, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.create(member, payload)),
          Effect.flatMap((data) => ok(couponMessages.couponCreated, data))
        ))
      .handle("validate", ({ payload }) =>
        Effect.gen(function*() {
          const result = yield* coupons.validate(yield* CurrentMember, payload)
          const language = yield* requestLanguage
          const message = result.message === null ? null : result.message[language]
          return yield* ok(result.message ?? couponMessages.couponValid, { ...result, message })
        }))
      .handle("detail", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.detail(member, path.id)),
          Effect.flatMap((data) => ok(couponMessages.coupon, data))
        ))
      .handle("usage", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.usage(member, path.id.trim(), urlParams)),
          Effect.flatMap((result) => page(couponMessages.usage, result))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.update(member, path.id.trim(), payload)),
          Effect.flatMap((data) => ok(couponMessages.couponUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.remove(member, path.id.trim())),
          Effect.zipRight(ok(couponMessages.couponDeleted, null))
        ))
      .handle("changeStatus", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => coupons.changeStatus(member, path.id.trim(), payload.status)),
          Effect.flatMap((data) => ok(couponMessages.couponStatusChanged, data))
        ))
  }))
