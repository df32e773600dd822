import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { Checkout } from "./Checkout"
import { checkoutMessages as M } from "./messages"

export const CheckoutHttp = apiGroup(RodaApi, "checkout", (handlers) =>
  Effect.gen(function*() {
    const checkout = yield* Checkout
    return handlers
      .handle("config", () =>
        CurrentVisitor.pipe(Effect.flatMap(checkout.config), Effect.flatMap((data) => ok(M.config, data))))
      .handle("quote", ({ payload }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) =>
            checkout.quote(visitor, payload)
          ),
          Effect.flatMap((data) => ok(M.quote, data))
        ))
      .handle("checkout", ({ headers, payload }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => checkout.checkout(visitor, payload, headers["idempotency-key"])),
          Effect.flatMap((data) => ok(data.status === "paid" ? M.paid : M.pending, data))
        ))
      .handle("charge", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => checkout.charge(visitor, path.chargeId)),
          Effect.flatMap((data) => ok(M.charge, data))
        ))
      .handle("sandboxPay", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => checkout.sandboxPay(visitor, path.chargeId)),
          Effect.flatMap((data) => ok(M.chargePaid, data))
        ))
  }))

export const CheckoutWebhooksHttp = apiGroup(
  RodaApi,
  "checkoutWebhooks",
  (handlers) =>
    Effect.gen(function*() {
      const checkout = yield* Checkout
      // The payload was decoded from the body (400 when it is not JSON); signatures cover the raw text,
      // which the request keeps.
      return handlers.handle("receive", ({ path }) =>
        HttpServerRequest.HttpServerRequest.pipe(
          Effect.flatMap((request) =>
            Effect.flatMap(Effect.orDie(request.text), (body) => checkout.webhook(path.gateway, request.headers, body))
          ),
          Effect.flatMap((data) => ok(data.duplicate ? M.eventDuplicate : M.eventHandled, data))
        ))
    })
)

export const PurchasesHttp = apiGroup(RodaApi, "purchases", (handlers) =>
  Effect.gen(function*() {
    const checkout = yield* Checkout
    return handlers.handle("mine", ({ urlParams }) =>
      CurrentMember.pipe(
        Effect.flatMap((member) => checkout.purchases(member, urlParams)),
        Effect.flatMap((result) => page(M.purchases, result))
      ))
  }))
