import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page } from "../http/Reply"
import { Communities } from "./Communities"
import { communityMessages as M } from "./messages"

export const CommunitiesHttp = apiGroup(RodaApi, "communities", (handlers) =>
  Effect.gen(function*() {
    const communities = yield* Communities
    return handlers
      .handle("create", ({ payload }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => communities.create(account, payload)),
          Effect.flatMap((data) => ok(M.communityCreated, data))
        ))
      .handle("my", () =>
        CurrentAccount.pipe(
          Effect.flatMap(communities.my),
          Effect.flatMap((data) => ok(M.communities, data))
        ))
      .handle("resolveDomain", ({ payload }) =>
        communities.resolve(payload.domain).pipe(Effect.flatMap((data) => ok(M.communities, data))))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) =>
            communities.update(member, path.id, payload)
          ),
          Effect.flatMap((data) => ok(M.communityUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => communities.remove(member, path.id)),
          Effect.zipRight(ok(M.communityDeleted, null))
        ))
      .handle("members", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => communities.members(member, path.id, urlParams)),
          Effect.flatMap((result) => page(M.members, result))
        ))
      .handle("settings", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => communities.updateSettings(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.settingsUpdated, data))
        ))
      .handle("notificationSettings", () =>
        CurrentMember.pipe(
          Effect.flatMap(communities.notificationSettings),
          Effect.flatMap((data) => ok(M.notificationSettings, data))
        ))
      .handle("setNotificationSettings", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => communities.setNotificationSettings(member, payload.salesEmail)),
          Effect.flatMap((data) => ok(M.settingsUpdated, data))
        ))
  }))
