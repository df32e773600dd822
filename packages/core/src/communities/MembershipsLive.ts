import { Effect, Layer, Option } from "effect"
import { CommunityNotices, Memberships } from "./Memberships"
import { CommunitiesRepo } from "./Repo"

/** `Memberships` and `CommunityNotices` over the communities' own statements. */
export const MembershipsLive = Layer.mergeAll(
  Layer.effect(
    Memberships,
    Effect.map(CommunitiesRepo, (repo) => ({
      callerIn: repo.callerIn,
      callerRow: repo.callerRow,
      profileRole: repo.profileRole,
      recipients: repo.recipients,
      setSuspension: repo.setSuspension
    }))
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
).pipe(Layer.provide(CommunitiesRepo.Default))
