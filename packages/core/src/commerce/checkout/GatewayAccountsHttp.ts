import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentAccount } from "../../domain/Caller"
import { CommunityId } from "../../domain/Ids"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok } from "../../http/Reply"
import { GatewayAccounts } from "./GatewayAccounts"
import { checkoutMessages as M } from "./messages"

export const GatewayAccountsHttp = apiGroup(
  RodaApi,
  "gatewayAccounts",
  (handlers) =>
    Effect.gen(function*() {
      const accounts = yield* GatewayAccounts
      return handlers
        .handle("get", ({ path }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) => accounts.get(account, CommunityId.make(path.communityId))),
            Effect.flatMap((data) => ok(M.gatewayAccount, data))
          ))
        .handle("set", ({ path, payload }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) => accounts.set(account, CommunityId.make(path.communityId), payload.accountId)),
            Effect.flatMap((data) => ok(M.gatewayAccountSet, data))
          ))
        .handle("remove", ({ path }) =>
          CurrentAccount.pipe(
            Effect.flatMap((account) => accounts.remove(account, CommunityId.make(path.communityId))),
            Effect.flatMap((data) => ok(M.gatewayAccountSet, data))
          ))
    })
)
