import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
const pattern = new RegExp(`@\\[[^\\]\\n]{1,200}\\]\\((${UUID})\\)|@(${UUID})`, "g")

/** Most mentions stored per body. */
export const MAX_MENTIONS = 50

/**
 * Profile ids mentioned in a body, each once, in order: `@[Full Name](profileId)` (what editors
 * insert: the name reads well, the id is exact) or a bare `@profileId`.
 */
export const mentionedIds = (body: string): ReadonlyArray<string> => {
  const ids = new Set<string>()
  for (const match of body.matchAll(pattern)) {
    ids.add((match[1] ?? match[2]!).toLowerCase())
    if (ids.size === MAX_MENTIONS) break
  }
  return [...ids]
}

export type MentionType = "status" | "content" | "comment"

export const MentionRow = Schema.Struct({ itemId: Schema.String, profileId: ProfileId, fullName: Schema.String })
export type MentionRow = typeof MentionRow.Type

const decodeMentions = decodeRows(MentionRow)

/** A mention on the wire. */
export const mentionView = (row: MentionRow) => ({ profileId: row.profileId, fullName: row.fullName })

/** SQL for mentions: resolved against the profiles of the item's community only. */
export class MentionsRepo extends Effect.Service<MentionsRepo>()("@roda/core/MentionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** Replaces the item's mentions with those of `body`; unknown or other communities' ids are ignored. */
      replace: (communityId: CommunityId, type: MentionType, itemId: string, body: string) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM mentions WHERE community_id = ${communityId} AND item_type = ${type}
            AND item_id = ${itemId}`
          const ids = mentionedIds(body)
          if (ids.length === 0) return
          yield* sql`INSERT INTO mentions (community_id, item_type, item_id, profile_id)
            SELECT community_id, ${type}, ${itemId}, id FROM member_cards
            WHERE community_id = ${communityId} AND removed_at IS NULL AND status = 'active'
              AND ${sql.in("id", ids)}`
        }).pipe(Effect.orDie),
      /**
       * The mentions of `body` on a new item (nothing to replace), answered as `of` would: one
       * statement, none without mentions.
       */
      insertFor: (communityId: CommunityId, type: MentionType, itemId: string, body: string) => {
        const ids = mentionedIds(body)
        return ids.length === 0
          ? Effect.succeed<ReadonlyArray<MentionRow>>([])
          : sql`WITH m AS (
              INSERT INTO mentions (community_id, item_type, item_id, profile_id)
              SELECT community_id, ${type}, ${itemId}, id FROM member_cards
              WHERE community_id = ${communityId} AND removed_at IS NULL AND status = 'active'
                AND ${sql.in("id", ids)}
              RETURNING item_id, profile_id)
            SELECT m.item_id, p.id AS profile_id, p.full_name FROM m
              JOIN member_cards p ON p.community_id = ${communityId} AND p.id = m.profile_id
            ORDER BY p.full_name, p.id`.pipe(Effect.orDie, Effect.flatMap(decodeMentions))
      },
      /** Mentions of these items, one query. */
      of: (communityId: CommunityId, type: MentionType, itemIds: ReadonlyArray<string>) =>
        itemIds.length === 0
          ? Effect.succeed<ReadonlyArray<MentionRow>>([])
          : sql`SELECT m.item_id, p.id AS profile_id, p.full_name FROM mentions m
              JOIN member_cards p ON p.community_id = m.community_id AND p.id = m.profile_id
              WHERE m.community_id = ${communityId} AND m.item_type = ${type} AND ${sql.in("m.item_id", itemIds)}
              ORDER BY p.full_name, p.id`.pipe(Effect.orDie, Effect.flatMap(decodeMentions))
    }
  })
}) {}

/** Mentions grouped by item id. */
export const groupMentions = (rows: ReadonlyArray<MentionRow>) => {
  const byItem = new Map<string, Array<ReturnType<typeof mentionView>>>()
  for (const row of rows) {
    const list = byItem.get(row.itemId) ?? []
    list.push(mentionView(row))
    byItem.set(row.itemId, list)
  }
  return byItem
}
