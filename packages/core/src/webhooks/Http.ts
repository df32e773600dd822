import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page } from "../http/Reply"
import { WebhookMessages as M } from "./messages"
import { Webhooks } from "./Webhooks"

export const WebhooksHttp = apiGroup(
  RodaApi,
  "webhooks",
  (handlers) =>
    Effect.gen(function*() {
      const webhooks = yield* Webhooks
      const as = <A, E, R>(f: (member: Effect.Effect.Success<typeof CurrentMember>) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(CurrentMember, f)
      return handlers
        .handle("create", ({ payload }) =>
          as((member) => Effect.flatMap(webhooks.create(member, payload), (data) => ok(M.created, data))))
        .handle("list", ({ urlParams }) =>
          as((member) =>
            Effect.flatMap(webhooks.list(member, urlParams), (result) =>
              page(M.listed, result))
          ))
        .handle("get", ({ path }) =>
          as((member) =>
            Effect.flatMap(webhooks.get(member, path.id), (data) =>
              ok(M.found, data))
          ))
        .handle("update", ({ path, payload }) =>
          as((member) =>
            Effect.flatMap(webhooks.update(member, path.id, payload), (data) =>
              ok(M.updated, data))
          ))
        .handle("remove", ({ path }) =>
          as((member) =>
            Effect.zipRight(webhooks.remove(member, path.id), ok(M.deleted, null))
          ))
        .handle("rotateSecret", ({ path }) =>
          as((member) =>
            Effect.flatMap(webhooks.rotate(member, path.id), (data) => ok(M.rotated, data))
          ))
        .handle("test", ({ path }) =>
          as((member) =>
            Effect.flatMap(webhooks.test(member, path.id), (data) => ok(M.testQueued, data))
          ))
        .handle("deliveries", ({ path, urlParams }) =>
          as((member) =>
            Effect.flatMap(webhooks.deliveries(member, path.id, urlParams), (result) =>
              page(M.deliveries, result))
          ))
        .handle("retry", ({ path }) =>
          as((member) =>
            Effect.flatMap(webhooks.retry(member, path.deliveryId), (data) =>
              ok(M.retried, data))
          ))
        .handle("events", ({ urlParams }) =>
          as((member) =>
            Effect.flatMap(webhooks.events(member, urlParams), (result) =>
              page(M.events, result))
          ))
    })
)
