import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { CommunityId, ProfileId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { type ReactableType, type ReactionType, reactionTypes } from "./kinds"
import { ReactedItem, reactedItem } from "./reactionNotice"

const Reaction = Schema.Literal(...reactionTypes)

export const ReactionCountRow = Schema.Struct({ itemId: Schema.String, type: Reaction, n: Schema.Number })
export type ReactionCountRow = typeof ReactionCountRow.Type

const decodeCounts = decodeRows(ReactionCountRow)
const decodeMine = decodeRows(Schema.Struct({ itemId: Schema.String, type: Reaction }))
const decodeItemIds = decodeRows(Schema.Struct({ itemId: Schema.String }))
const decodeReacted = decodeRows(ReactedItem)

/** SQL for reactions: one row per person per item. */
export class ReactionsRepo extends Effect.Service<ReactionsRepo>()("@roda/core/ReactionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const key = (communityId: CommunityId, itemType: ReactableType, itemId: string, profileId: ProfileId) =>
      sql`community_id = ${communityId} AND item_type = ${itemType} AND item_id = ${itemId}
        AND profile_id = ${profileId}`
    return {
      /** Removes the person's reaction when it is of `type`; whether it did. */
      removeIfSame: (
        communityId: CommunityId,
        itemType: ReactableType,
        itemId: string,
        profileId: ProfileId,
        type: ReactionType
      ) =>
        sql`DELETE FROM reactions WHERE ${key(communityId, itemType, itemId, profileId)}
          AND type = ${type} RETURNING item_id`.pipe(
          Effect.flatMap(decodeItemIds),
          Effect.map((rows) => rows.length > 0)
        ),
      /** Sets the person's reaction (adds it or replaces another type): what it is on, for its notification. */
      upsert: (
        communityId: CommunityId,
        itemType: ReactableType,
        itemId: string,
        profileId: ProfileId,
        type: ReactionType
      ) =>
        sql`WITH r AS (
            INSERT INTO reactions (community_id, item_type, item_id, profile_id, type)
            VALUES (${communityId}, ${itemType}, ${itemId}, ${profileId}, ${type})
            ON CONFLICT (community_id, item_type, item_id, profile_id)
            DO UPDATE SET type = excluded.type, created_at = now()
            RETURNING item_id)
          SELECT a.* FROM r CROSS JOIN (${reactedItem(sql, communityId, itemType, itemId)}) a`.pipe(
          Effect.flatMap(decodeReacted),
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      /** Reactions by type of these items: one grouped query. */
      counts: (communityId: CommunityId, itemType: ReactableType, itemIds: ReadonlyArray<string>) =>
        itemIds.length === 0
          ? Effect.succeed<ReadonlyArray<ReactionCountRow>>([])
          : sql`SELECT item_id, type, count(*)::int AS n FROM reactions
              WHERE community_id = ${communityId} AND item_type = ${itemType} AND ${sql.in("item_id", itemIds)}
              GROUP BY item_id, type`.pipe(Effect.orDie, Effect.flatMap(decodeCounts)),
      /** The person's reactions to these items: one query. */
      mine: (communityId: CommunityId, profileId: ProfileId, itemType: ReactableType, itemIds: ReadonlyArray<string>) =>
        itemIds.length === 0
          ? Effect.succeed<ReadonlyArray<{ itemId: string; type: ReactionType }>>([])
          : sql`SELECT item_id, type FROM reactions
              WHERE community_id = ${communityId} AND item_type = ${itemType} AND profile_id = ${profileId}
              AND ${sql.in("item_id", itemIds)}`.pipe(Effect.orDie, Effect.flatMap(decodeMine))
    }
  })
}) {}
