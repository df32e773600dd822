import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { Memberships } from "../../communities/Memberships"
import { forbidden, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { isUuid, ProfileId } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { staffRoles } from "../../domain/Role"

/**
 * `X-ProfileId` (spec §5): only owner, admin and moderator may act as another profile; the profile
 * must be of the same community; only an owner may act as an owner; the caller keeps their own role.
 */
export const makeApplyActingProfile = Effect.map(Memberships, (memberships) => {
  const actAs = (member: Member, header: string) =>
    Effect.gen(function*() {
      if (!staffRoles.includes(member.role)) return yield* Effect.fail(forbidden(Messages.actingProfileForbidden))
      if (!isUuid(header)) {
        return yield* Effect.fail(invalidField("X-ProfileId", Messages.actingProfileInvalid, "headers"))
      }
      const profileId = ProfileId.make(header.toLowerCase())
      const target = yield* orNotFound(Messages.actingProfileNotFound)(
        memberships.profileRole(member.communityId, profileId)
      )
      if (target === "owner" && member.role !== "owner") {
        return yield* Effect.fail(forbidden(Messages.actingProfileForbidden))
      }
      return { ...member, actingProfileId: profileId }
    })
  return (member: Member) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const header = request.headers["x-profileid"]?.trim()
      const acting = header !== undefined && header !== "" && header.toLowerCase() !== member.profileId
      return acting ? actAs(member, header) : Effect.succeed(member)
    })
})
