import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import type { CommunityId } from "../../domain/Ids"
import { decodeRows } from "../../domain/Rows"
import type { DataSubject, ErasureStep } from "../../privacy/PersonalData"
import { SubscriptionEvents } from "./Events"
import { SubscriptionLifecycle } from "./Lifecycle"
import { canMove, phaseOf } from "./Policy"
import { SubscriptionsRepo } from "./Repo"

const decodeOpen = decodeRows(Schema.Struct({ id: Schema.String, communityId: Schema.String }))

/**
 * Subscriptions' part of an erasure: running subscriptions are canceled as the member's own cancel
 * does (`Cancelling.ts`): an active one at the period end (`cancelAtPeriodEnd`; access goes on until
 * then, no renewal is charged), a past-due, unpaid, paused or incomplete one now. The e-mail of a
 * cancel is written before identity's step erases the address (it runs earlier). Subscriptions,
 * billings and refunds stay under the pseudonymous profile id.
 */
export const subscriptionsErasure = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* SubscriptionsRepo
  const life = yield* SubscriptionLifecycle

  const cancelOne = (communityId: CommunityId, id: string) =>
    Effect.gen(function*() {
      const found = yield* repo.find(communityId, id, { lock: true })
      if (Option.isNone(found)) return
      const row = found.value
      const phase = phaseOf(row)
      const at = new Date(yield* Clock.currentTimeMillis)
      if (phase === "active") {
        yield* repo.update(row.id, { cancelAtPeriodEnd: true, scheduledProductId: null, scheduledPrice: null }, at)
      } else if (phase !== "active_canceling" && canMove(phase, "cancel")) {
        yield* life.end(row, at)
      }
    })

  const erase = (subject: DataSubject) =>
    subject.profiles.length === 0 ? Effect.void : Effect.gen(function*() {
      const open = yield* sql`SELECT id, community_id FROM subscriptions
        WHERE community_id IN ${sql.in([...new Set(subject.profiles.map((p) => p.communityId))])}
          AND profile_id IN ${sql.in(subject.profiles.map((p) => p.profileId))}
          AND status NOT IN ('canceled', 'incomplete_expired')
        ORDER BY id`.pipe(Effect.flatMap(decodeOpen), Effect.orDie)
      for (const row of open) yield* cancelOne(row.communityId as CommunityId, row.id)
    })

  return {
    feature: "commerce/subscriptions",
    keeps:
      "subscriptions and their billings, amounts and dates under the pseudonymous profile id (tax and consumer law); running ones are canceled at the period end.",
    erase
  } satisfies ErasureStep
}).pipe(
  Effect.provide(
    SubscriptionLifecycle.DefaultWithoutDependencies.pipe(
      Layer.provideMerge(Layer.merge(SubscriptionsRepo.Default, SubscriptionEvents.Default))
    )
  )
)
