import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { requireNotSuspended } from "../communities/Memberships"
import type { Member } from "../domain/Caller"
import type { CommunityId, ProfileId } from "../domain/Ids"
import { excerpt, Notify } from "../notifications/Notify"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { viewerOfMember } from "../structure/Access"
import { SocialItems } from "./items"
import { emptyCounts, type ReactableType, type ReactionCounts, type ReactionType, totalOf } from "./kinds"
import { type ReactedItem, reactionOnceKey } from "./reactionNotice"
import { ReactionsRepo } from "./ReactionsRepo"

/**
 * Reactions on any feed item or comment: one per person (the acting profile) per item. The same
 * type again removes it, another type replaces it.
 */
export class Reactions extends Effect.Service<Reactions>()("@roda/core/Reactions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ReactionsRepo
    const items = yield* SocialItems
    const notify = yield* Notify

    /** `reaction` to the item's author, at most once per item and hour; none for one's own item. */
    const tellAuthor = (communityId: CommunityId, actor: ProfileId, itemId: string, item: ReactedItem) =>
      item.author === null || item.author === actor ? Effect.void : Effect.flatMap(
        Clock.currentTimeMillis,
        (now) =>
          notify.notify(communityId, {
            kind: "reaction",
            recipients: [item.author!],
            actorProfileId: actor,
            subject: { type: item.subjectType, id: item.subjectId, title: excerpt(item.subjectText ?? "") },
            spaceId: item.spaceId,
            onceKey: reactionOnceKey(itemId, now)
          })
      )

    /** Reactions by type of each item (every type present, zeros included): one grouped query. */
    const countsFor = traced("Reactions.countsFor")(
      function*(communityId: CommunityId, itemType: ReactableType, itemIds: ReadonlyArray<string>) {
        const rows = yield* repo.counts(communityId, itemType, itemIds)
        const counts = new Map<string, ReactionCounts>(itemIds.map((id) => [id, emptyCounts()]))
        for (const row of rows) {
          const entry = counts.get(row.itemId) ?? emptyCounts()
          entry[row.type] = row.n
          counts.set(row.itemId, entry)
        }
        return counts as ReadonlyMap<string, ReactionCounts>
      }
    )

    /** The profile's reaction to each item it reacted to: one query. */
    const mineFor = traced("Reactions.mineFor")(
      function*(
        communityId: CommunityId,
        profileId: ProfileId,
        itemType: ReactableType,
        itemIds: ReadonlyArray<string>
      ) {
        const rows = yield* repo.mine(communityId, profileId, itemType, itemIds)
        return new Map(rows.map((row) => [row.itemId, row.type])) as ReadonlyMap<string, ReactionType>
      }
    )

    /**
     * Adds, changes or removes the member's reaction. The item must exist in the community and be
     * readable by the member (404/403, see `SocialItems`). Answers the new state.
     */
    const react = traced("Reactions.react")(
      function*(member: Member, itemType: ReactableType, itemId: string, reactionType: ReactionType) {
        const item = yield* items.resolve(viewerOfMember(member), itemType, itemId)
        yield* requireNotSuspended(member)
        const community = member.communityId
        const profile = member.actingProfileId
        const removed = yield* transactional(sql)(
          Effect.gen(function*() {
            if (yield* repo.removeIfSame(community, itemType, item.id, profile, reactionType)) return true
            const reacted = yield* repo.upsert(community, itemType, item.id, profile, reactionType)
            if (Option.isSome(reacted)) yield* tellAuthor(community, profile, item.id, reacted.value)
            return false
          })
        )
        const counts = (yield* countsFor(community, itemType, [item.id])).get(item.id) ?? emptyCounts()
        return {
          itemType,
          itemId: item.id,
          reaction: removed ? null : reactionType,
          reactions: counts,
          reactionCount: totalOf(counts)
        }
      }
    )

    return { react, countsFor, mineFor }
  }),
  dependencies: [ReactionsRepo.Default, SocialItems.Default]
}) {}
