import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../domain/Caller"
import { Ok } from "../domain/Envelope"
import { apiGroup } from "../http/engine/apiGroup"
import { rateLimited } from "../http/rateLimited"
import { ok, page } from "../http/Reply"
import { communityIdHeader } from "../http/Security"
import { communityMessages as M } from "./messages"
import { Profiles } from "./Profiles"
import { Profile } from "./ProfilesApi"

/** Invitations count against `invite` (RateLimits): the answers carry its headers. */
const added = rateLimited(Ok(Profile), { status: 201 })

export const ProfilesHttp = apiGroup(RodaApi, "profiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* Profiles
    const asMember = <A, E, R>(f: (member: typeof CurrentMember.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentMember, f)
    return handlers
      .handle("invite", ({ payload }) =>
        asMember((m) =>
          profiles.add(m, payload, true)
        ).pipe(Effect.flatMap((data) => ok(M.profileInvited, data)), added))
      .handle("create", ({ payload }) =>
        asMember((m) =>
          profiles.add(m, payload, false)
        ).pipe(
          Effect.flatMap((data) =>
            ok(M.profileCreated, data)
          ),
          added
        ))
      .handle("autocomplete", ({ urlParams }) =>
        asMember((m) =>
          profiles.autocomplete(m, urlParams.q, urlParams.limit)
        ).pipe(
          Effect.flatMap((data) => ok(M.profiles, data))
        ))
      .handle("list", ({ urlParams }) =>
        asMember((m) =>
          profiles.list(m, urlParams)
        ).pipe(Effect.flatMap((result) => page(M.profiles, result))))
      .handle("my", () =>
        Effect.flatMap(CurrentAccount, profiles.my).pipe(Effect.flatMap((data) =>
          ok(M.profiles, data)
        )))
      .handle("tags", () =>
        asMember(profiles.tags).pipe(Effect.flatMap((data) => ok(M.tags, data))))
      .handle("renameTag", ({ path, payload }) =>
        asMember((m) => profiles.renameTag(m, path.tag, payload.name)).pipe(
          Effect.flatMap((data) => ok(M.tagRenamed, data))
        ))
      .handle("removeTag", ({ path }) =>
        asMember((m) =>
          profiles.removeTag(m, path.tag)
        ).pipe(Effect.flatMap((data) => ok(M.tagRemoved, data))))
      .handle("tagColor", ({ path, payload }) =>
        asMember((m) =>
          profiles.setTagColor(m, path.tag, payload.color)
        ).pipe(
          Effect.flatMap((data) => ok(M.tagColorSet, data))
        ))
      .handle("email", ({ path, payload }) =>
        asMember((m) => profiles.changeEmail(m, path.id, payload)).pipe(
          Effect.flatMap((data) => ok(data.pendingEmail === null ? M.profileUpdated : M.emailChangePending, data))
        ))
      .handle("accept", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          const data = yield* profiles.accept(account, yield* communityIdHeader, path.id)
          return yield* ok(M.invitationAccepted, data)
        }))
      .handle("decline", ({ path }) =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          yield* profiles.decline(account, yield* communityIdHeader, path.id)
          return yield* ok(M.invitationDeclined, null)
        }))
      .handle("phone", ({ path, payload }) =>
        asMember((m) => profiles.update(m, path.id, { phone: payload.phone })).pipe(
          Effect.flatMap((data) => ok(M.profileUpdated, data))
        ))
      .handle("setTags", ({ path, payload }) =>
        asMember((m) => profiles.setTags(m, path.id, payload.tags)).pipe(
          Effect.flatMap((data) => ok(M.profileUpdated, data))
        ))
      .handle("update", ({ path, payload }) =>
        asMember((m) => profiles.update(m, path.id, payload)).pipe(
          Effect.flatMap((data) => ok(M.profileUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        asMember((m) => profiles.remove(m, path.id)).pipe(Effect.zipRight(ok(M.profileRemoved, null))))
      .handle("role", ({ path, payload }) =>
        asMember((m) =>
          profiles.changeRole(m, path.id, payload.role)
        ).pipe(
          Effect.flatMap((data) => ok(M.profileUpdated, data))
        ))
  }))
