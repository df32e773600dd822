import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { excerpt, Notify } from "../notifications/Notify"

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

/** The item a mention in it, or a reply to it, notifies about: who wrote it, the feed item to open. */
const About = Schema.Struct({
  actor: Schema.NullOr(Schema.String),
  subjectType: Schema.NullOr(Schema.String),
  subjectId: Schema.NullOr(Schema.String),
  subjectText: Schema.NullOr(Schema.String),
  spaceId: Schema.NullOr(Schema.String),
  /** A comment's: the author of the comment it replies to, and of the post it is on. */
  parentAuthor: Schema.NullOr(Schema.String),
  itemAuthor: Schema.NullOr(Schema.String)
})
type About = typeof About.Type
const decodeAbout = decodeRows(About)
const decodeMentioned = decodeRows(Schema.Struct({ ...MentionRow.fields, ...About.fields }))
const decodeInserted = decodeRows(Schema.Struct({ profileId: Schema.String, ...About.fields }))
const decodeRemoved = decodeRows(Schema.Struct({ profileId: Schema.String }))

/** A mention on the wire. */
export const mentionView = (row: MentionRow) => ({ profileId: row.profileId, fullName: row.fullName })

/** SQL for mentions: resolved against the profiles of the item's community only. */
export class MentionsRepo extends Effect.Service<MentionsRepo>()("@roda/core/MentionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const notify = yield* Notify

    /** `About` the item, selected from social's own tables (and the course and event item views). */
    const about = (communityId: CommunityId, type: MentionType, itemId: string) => {
      const where = sql`community_id = ${communityId} AND id = ${itemId}`
      switch (type) {
        case "status":
          return sql`SELECT author_profile_id AS actor, 'status' AS subject_type, id AS subject_id,
            body AS subject_text, NULL::uuid AS space_id, NULL::uuid AS parent_author, author_profile_id AS item_author
            FROM status_posts WHERE ${where}`
        case "content":
          return sql`SELECT author_profile_id AS actor, 'content' AS subject_type, id AS subject_id,
            title AS subject_text, space_id, NULL::uuid AS parent_author, author_profile_id AS item_author
            FROM content_posts WHERE ${where}`
        case "comment": {
          const on = (alias: string, itemType: string) =>
            sql`c.item_type = ${itemType} AND ${sql(alias)}.community_id = c.community_id AND ${
              sql(alias)
            }.id = c.item_id`
          return sql`SELECT c.author_profile_id AS actor, c.item_type AS subject_type, c.item_id AS subject_id,
              coalesce(sp.body, cp.title, ci.title, ei.title) AS subject_text,
              coalesce(cp.space_id, ci.space_id, ei.space_id) AS space_id,
              pc.author_profile_id AS parent_author, coalesce(sp.author_profile_id, cp.author_profile_id) AS item_author
            FROM comments c
            LEFT JOIN comments pc ON pc.community_id = c.community_id AND pc.id = c.parent_id
            LEFT JOIN status_posts sp ON ${on("sp", "status")}
            LEFT JOIN content_posts cp ON ${on("cp", "content")}
            LEFT JOIN course_items ci ON ${on("ci", "course")}
            LEFT JOIN event_items ei ON ${on("ei", "event")}
            WHERE c.community_id = ${communityId} AND c.id = ${itemId}`
        }
      }
    }

    /** Tells `recipients` (the item's author excepted) of `kind` on the item: one statement, none for nobody. */
    const tell = (
      communityId: CommunityId,
      kind: "mention" | "reply",
      item: About,
      recipients: ReadonlyArray<string | null>,
      sourceId: string
    ) => {
      const to = [...new Set(recipients)].filter((id): id is string => id !== null && id !== item.actor)
      return to.length === 0 || item.subjectType === null || item.subjectId === null
        ? Effect.succeed<ReadonlyArray<string>>([])
        : Effect.as(
          notify.notify(communityId, {
            kind,
            recipients: to,
            actorProfileId: item.actor,
            subject: { type: item.subjectType, id: item.subjectId, title: excerpt(item.subjectText ?? "") },
            spaceId: item.spaceId,
            sourceId
          }),
          to
        )
    }

    return {
      /**
       * Replaces the item's mentions with those of `body` (unknown or other communities' ids are
       * ignored) and notifies those mentioned now and not before (`mention`): who were notified.
       */
      replace: (communityId: CommunityId, type: MentionType, itemId: string, body: string, quiet = false) =>
        Effect.gen(function*() {
          const before = yield* sql`DELETE FROM mentions WHERE community_id = ${communityId} AND item_type = ${type}
            AND item_id = ${itemId} RETURNING profile_id`.pipe(Effect.flatMap(decodeRemoved))
          const ids = mentionedIds(body)
          if (ids.length === 0) return []
          const rows = yield* sql`WITH m AS (
              INSERT INTO mentions (community_id, item_type, item_id, profile_id)
              SELECT community_id, ${type}, ${itemId}, id FROM member_cards
              WHERE community_id = ${communityId} AND removed_at IS NULL AND status = 'active'
                AND ${sql.in("id", ids)}
              RETURNING profile_id),
            about AS (${about(communityId, type, itemId)})
            SELECT m.profile_id, a.* FROM m LEFT JOIN about a ON TRUE`.pipe(Effect.flatMap(decodeInserted))
          // a held item's mentions are notified on its approval (`announce`)
          if (rows.length === 0 || quiet) return []
          const known = new Set(before.map((row) => row.profileId))
          return yield* tell(
            communityId,
            "mention",
            rows[0]!,
            rows.filter((row) => !known.has(row.profileId)).map((row) => row.profileId),
            itemId
          )
        }).pipe(Effect.orDie),
      /**
       * The mentions of `body` on a new item (nothing to replace), answered as `of` would: one
       * statement, none without mentions; then those mentioned are notified (one more).
       */
      insertFor: (communityId: CommunityId, type: MentionType, itemId: string, body: string, quiet = false) => {
        const ids = mentionedIds(body)
        return ids.length === 0
          ? Effect.succeed<ReadonlyArray<MentionRow>>([])
          : sql`WITH m AS (
              INSERT INTO mentions (community_id, item_type, item_id, profile_id)
              SELECT community_id, ${type}, ${itemId}, id FROM member_cards
              WHERE community_id = ${communityId} AND removed_at IS NULL AND status = 'active'
                AND ${sql.in("id", ids)}
              RETURNING item_id, profile_id),
            about AS (${about(communityId, type, itemId)})
            SELECT m.item_id, p.id AS profile_id, p.full_name, a.* FROM m
              JOIN member_cards p ON p.community_id = ${communityId} AND p.id = m.profile_id
              LEFT JOIN about a ON TRUE
            ORDER BY p.full_name, p.id`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeMentioned),
            Effect.flatMap((rows) =>
              rows.length === 0 || quiet
                ? Effect.succeed(rows)
                : Effect.as(tell(communityId, "mention", rows[0]!, rows.map((row) => row.profileId), itemId), rows)
            ),
            Effect.map((rows) => rows.map(({ fullName, itemId, profileId }) => ({ itemId, profileId, fullName })))
          )
      },
      /**
       * Notifies those an item mentions (`mention`), as `insertFor` would have: for held content, on
       * its approval (one read, then one write). Who were notified.
       */
      announce: (communityId: CommunityId, type: MentionType, itemId: string) =>
        sql`SELECT m.profile_id, a.* FROM mentions m LEFT JOIN (${about(communityId, type, itemId)}) a ON TRUE
          WHERE m.community_id = ${communityId} AND m.item_type = ${type} AND m.item_id = ${itemId}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeInserted),
          Effect.flatMap((rows) =>
            rows.length === 0
              ? Effect.succeed<ReadonlyArray<string>>([])
              : tell(communityId, "mention", rows[0]!, rows.map((row) => row.profileId), itemId)
          )
        ),
      /**
       * A new comment's `reply`: to the author of the comment it answers and to the author of the post
       * it is on, except those its mentions notified already (one read, then one write).
       */
      notifyReply: (communityId: CommunityId, commentId: string, mentioned: ReadonlyArray<string>) =>
        sql`${about(communityId, "comment", commentId)}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeAbout),
          Effect.flatMap((rows) =>
            rows.length === 0 ? Effect.void : tell(
              communityId,
              "reply",
              rows[0]!,
              [rows[0]!.parentAuthor, rows[0]!.itemAuthor].filter((id) => id === null || !mentioned.includes(id)),
              commentId
            )
          ),
          Effect.asVoid
        ),
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
