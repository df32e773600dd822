import { Effect, Layer, Option } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { CommunityNotices, Memberships } from "./Memberships"
import { ProfilesRepo } from "./ProfilesRepo"
import { CommunitiesRepo } from "./Repo"
import { profileView } from "./view"

/** `Memberships` and `CommunityNotices` over the communities' own statements. */
export const MembershipsLive = Layer.mergeAll(
  Layer.effect(
    Memberships,
    Effect.gen(function*() {
      const repo = yield* CommunitiesRepo
      const profiles = yield* ProfilesRepo
      const events = yield* WebhookEvents
      return {
        callerIn: repo.callerIn,
        callerRow: repo.callerRow,
        profileRole: repo.profileRole,
        recipients: repo.recipients,
        setSuspension: repo.setSuspension,
        banTarget: profiles.banTarget,
        unban: profiles.unban,
        ban: (communityId: CommunityId, profileId: ProfileId, at: Date, reason: string) =>
          Effect.flatMap(profiles.ban(communityId, profileId, at, reason), (row) =>
            Option.isNone(row)
              ? Effect.succeed(false)
              : Effect.as(
                events.emit(communityId, "member.left", {
                  ...profileView(row.value, true),
                  removedAt: at.toISOString()
                }),
                true
              ))
      }
    })
  ),
  Layer.effect(
    CommunityNotices,
    Effect.map(CommunitiesRepo, (repo) => ({
      ownerEmails: repo.ownerEmails,
      salesEmail: (communityId: string) =>
        Effect.map(
          repo.notificationSettings(communityId),
          Option.flatMap((settings) => Option.fromNullable(settings.salesEmail))
        )
    }))
  )
).pipe(Layer.provide(Layer.merge(CommunitiesRepo.Default, ProfilesRepo.Default)))
