import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { Entitlements } from "./Entitlements"
import { StructureRepo } from "./Repo"

/** `Entitlements` over structure's own table. */
export const EntitlementsLive = Layer.effect(
  Entitlements,
  Effect.gen(function*() {
    const repo = yield* StructureRepo
    const sql = yield* SqlClient.SqlClient
    return {
      grant: repo.insertEntitlements,
      endOne: repo.endOneEntitlement,
      // subscriptions (issue 12): access follows the subscription's state
      setUntil: (rows) =>
        Effect.forEach(rows, (row) =>
          Effect.gen(function*() {
            const moved = yield* sql`UPDATE entitlements SET valid_until = ${row.validUntil}
              WHERE community_id = ${row.communityId} AND profile_id = ${row.profileId}
                AND source_type = ${row.sourceType} AND source_id = ${row.sourceId} AND valid_until IS NOT NULL
              RETURNING id`
            if (moved.length === 0) yield* repo.insertEntitlements([row])
          }), { discard: true }).pipe(Effect.orDie)
    }
  })
).pipe(Layer.provide(StructureRepo.Default))
