import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember } from "../../domain/Caller"
import { Ok } from "../../domain/Envelope"
import { apiGroup } from "../../http/engine/apiGroup"
import { rateLimited } from "../../http/rateLimited"
import { ok, page } from "../../http/Reply"
import { subscriptionMessages as M } from "./messages"
import { Subscriptions } from "./Subscriptions"

/** The request's `Idempotency-Key` header (the routes that charge or refund keep it themselves). */
const idempotencyKey = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers["idempotency-key"])

/** Payment links count against `paymentLink` (RateLimits): the answer carries its headers. */
const paymentLinkSent = rateLimited(Ok(Schema.Struct({ url: Schema.String, expiresAt: Schema.String })))

export const SubscriptionsHttp = apiGroup(RodaApi, "subscriptions", (handlers) =>
  Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    return handlers
      .handle("me", () =>
        CurrentMember.pipe(Effect.flatMap(subscriptions.mine), Effect.flatMap((data) => ok(M.list, data))))
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            subscriptions.list(member, urlParams)
          ),
          Effect.flatMap((result) => page(M.list, result))
        ))
      .handle("detail", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.detail(member, path.id)),
          Effect.flatMap((data) => ok(M.detail, data))
        ))
      .handle("billings", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.billings(member, path.id, urlParams)),
          Effect.flatMap((result) => page(M.billings, result))
        ))
      .handle("cancel", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.cancel(member, path.id)),
          Effect.flatMap((data) => ok(data.outcome === "scheduled" ? M.cancelScheduled : M.canceled, data.subscription))
        ))
      .handle("pause", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.pause(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.paused, data))
        ))
      .handle("resume", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.resume(member, path.id)),
          Effect.flatMap((data) => ok(M.resumed, data))
        ))
      .handle("reactivate", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.reactivate(member, path.id)),
          Effect.flatMap((data) => ok(M.reactivated, data))
        ))
      .handle("changeTierQuote", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.changeTierQuote(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.quote, data))
        ))
      .handle("changeTier", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            Effect.flatMap(idempotencyKey, (key) =>
              subscriptions.keyed(
                member,
                key,
                ["changeTier", path.id, payload],
                subscriptions.changeTier(member, path.id, payload)
              ))
          ),
          Effect.flatMap((data) => ok(data.scheduled ? M.tierScheduled : M.tierChanged, data))
        ))
      .handle("scheduledChange", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.scheduledChange(member, path.id)),
          Effect.flatMap((data) => ok(data === null ? M.noScheduledChange : M.scheduledChange, data))
        ))
      .handle("removeScheduledChange", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.removeScheduledChange(member, path.id)),
          Effect.flatMap((data) => ok(M.scheduledChangeRemoved, data))
        ))
      .handle("addOnQuote", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => subscriptions.addOnQuote(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.quote, data))
        ))
      .handle("addOn", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            Effect.flatMap(idempotencyKey, (key) =>
              subscriptions.keyed(
                member,
                key,
                ["addOn", path.id, payload],
                subscriptions.addOn(member, path.id, payload)
              ))
          ),
          Effect.flatMap((data) => ok(M.addOnAdded, data))
        ))
      .handle("payNow", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            Effect.flatMap(idempotencyKey, (key) =>
              subscriptions.keyed(
                member,
                key,
                ["payNow", path.id, payload],
                subscriptions.payNow(member, path.id, payload)
              ))
          ),
          Effect.flatMap((data) => ok(M.paid, data))
        ))
  }))

export const ManageSubscriptionsHttp = apiGroup(
  RodaApi,
  "manageSubscriptions",
  (handlers) =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      return handlers
        .handle("list", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.teamList(member, urlParams)),
            Effect.flatMap((result) => page(M.list, result))
          ))
        .handle("create", ({ payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.manual(member, payload)),
            Effect.flatMap((data) => ok(M.created, data))
          ))
        .handle("exportCsv", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.exportCsv(member, urlParams)),
            Effect.map((body) =>
              HttpServerResponse.stream(body, {
                contentType: "text/csv; charset=utf-8",
                headers: { "content-disposition": "attachment; filename=\"subscriptions.csv\"" }
              })
            )
          ))
        .handle("detail", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.teamDetail(member, path.subscriptionId)),
            Effect.flatMap((data) => ok(M.detail, data))
          ))
        .handle("billings", ({ path, urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.teamBillings(member, path.subscriptionId, urlParams)),
            Effect.flatMap((result) => page(M.billings, result))
          ))
        .handle("cancel", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) =>
              Effect.flatMap(idempotencyKey, (key) =>
                subscriptions.keyed(
                  member,
                  key,
                  ["teamCancel", path.subscriptionId, payload],
                  subscriptions.teamCancel(member, path.subscriptionId, payload)
                ))
            ),
            Effect.flatMap((data) => ok(payload.when === "now" ? M.canceled : M.cancelScheduled, data))
          ))
        .handle("reactivate", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.teamReactivate(member, path.subscriptionId)),
            Effect.flatMap((data) => ok(M.reactivated, data))
          ))
        .handle("setDiscount", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.setDiscount(member, path.subscriptionId, payload)),
            Effect.flatMap((data) => ok(M.discountSet, data))
          ))
        .handle("removeDiscount", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.removeDiscount(member, path.subscriptionId)),
            Effect.flatMap((data) => ok(M.discountRemoved, data))
          ))
        .handle("addOn", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.teamAddOn(member, path.subscriptionId, payload)),
            Effect.flatMap((data) => ok(M.addOnAdded, data))
          ))
        .handle("removeAddOn", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) =>
              subscriptions.removeAddOn(member, path.subscriptionId, path.addOnSubscriptionId)
            ),
            Effect.flatMap((data) => ok(M.addOnRemoved, data))
          ))
        .handle("extend", ({ path, payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.extend(member, path.subscriptionId, payload)),
            Effect.flatMap((data) => ok(M.extended, data))
          ))
        .handle("paymentLink", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => subscriptions.sendPaymentLink(member, path.subscriptionId)),
            Effect.flatMap((data) => ok(M.paymentLink, data)),
            paymentLinkSent
          ))
    })
)
