import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page } from "../http/Reply"
import { ApiKeys } from "./ApiKeys"
import { ApiKeyMessages as M } from "./messages"

export const ApiKeysHttp = apiGroup(
  RodaApi,
  "apiKeys",
  (handlers) =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys
      return handlers
        .handle("create", ({ payload }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => keys.create(member, payload)),
            Effect.flatMap((data) => ok(M.created, data))
          ))
        .handle("list", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => keys.list(member, urlParams)),
            Effect.flatMap((result) => page(M.listed, result))
          ))
        .handle("revoke", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => keys.revoke(member, path.id)),
            Effect.flatMap((data) => ok(M.revoked, data))
          ))
    })
)
