import { SqlClient } from "@effect/sql"
import { Effect, Option, Stream } from "effect"
import type { DataSubject, ExportFile } from "../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRows, keysetRowsOfEach } from "../sql/keysetExport"

type Profile = DataSubject["profiles"][number]

/**
 * Social's files of a members' data export (issue 56): what the subject's profiles wrote (posts and
 * comments not deleted, hidden and held ones too) and their reactions. Others' comments and reactions
 * on them are not the subject's and are left out. Pages by the authors' indexes of migration 0056.
 */
export const socialExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => {
  const moderated = sql`${isoOf(sql, "created_at")} AS created_at, ${isoOf(sql, "updated_at")} AS updated_at,
    ${isoOf(sql, "hidden_at")} AS hidden_at, ${isoOf(sql, "held_at")} AS held_at`
  const statusPosts = (profile: Profile) =>
    keysetRows(
      (after: Option.Option<string>) =>
        sql`SELECT 'status' AS type, id, community_id, body, ${moderated}
        FROM status_posts
        WHERE community_id = ${profile.communityId} AND author_profile_id = ${profile.profileId}
          AND deleted_at IS NULL ${afterKey(sql, "id", after)}
        ORDER BY id LIMIT ${EXPORT_PAGE}`,
      idKey
    )
  const contentPosts = (profile: Profile) =>
    keysetRows(
      (after: Option.Option<string>) =>
        sql`SELECT 'content' AS type, id, community_id, space_id, title, body, attachments, ${moderated}
        FROM content_posts
        WHERE community_id = ${profile.communityId} AND author_profile_id = ${profile.profileId}
          AND deleted_at IS NULL ${afterKey(sql, "id", after)}
        ORDER BY id LIMIT ${EXPORT_PAGE}`,
      idKey
    )
  return [
    {
      name: "posts.json",
      describes: "The status and content posts you wrote and did not delete (hidden or held ones included).",
      records: (subject) =>
        Stream.flatMap(
          Stream.fromIterable(subject.profiles),
          (profile) => Stream.concat(statusPosts(profile), contentPosts(profile))
        )
    },
    {
      name: "comments.json",
      describes:
        "The comments you wrote and did not delete, with the item each answers (hidden or held ones included).",
      records: (subject) =>
        keysetRowsOfEach(
          subject.profiles,
          (profile, after: Option.Option<string>) =>
            sql`SELECT id, community_id, item_type, item_id, parent_id, body, ${moderated}
            FROM comments
            WHERE community_id = ${profile.communityId} AND author_profile_id = ${profile.profileId}
              AND deleted_at IS NULL ${afterKey(sql, "id", after)}
            ORDER BY id LIMIT ${EXPORT_PAGE}`,
          idKey
        )
    },
    {
      name: "reactions.json",
      describes: "Your reactions: to which post, comment, course or event, which reaction and when.",
      // by `reactions_profile_items_idx` (community_id, profile_id, item_type, item_id)
      records: (subject) =>
        keysetRowsOfEach(
          subject.profiles,
          (profile, after: Option.Option<readonly [string, string]>) =>
            sql`SELECT community_id, item_type, item_id, type, ${isoOf(sql, "created_at")} AS created_at
            FROM reactions
            WHERE community_id = ${profile.communityId} AND profile_id = ${profile.profileId}
              ${
              Option.match(after, {
                onNone: () => sql``,
                onSome: ([type, id]) => sql`AND (item_type, item_id) > (${type}, ${id}::uuid)`
              })
            }
            ORDER BY item_type, item_id LIMIT ${EXPORT_PAGE}`,
          (row) => [row["itemType"] as string, row["itemId"] as string] as const
        )
    }
  ]
})
