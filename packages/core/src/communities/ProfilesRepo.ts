import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type AccountId, type CommunityId, ProfileId } from "../domain/Ids"
import { Role } from "../domain/Role"
import { decodeRows } from "../domain/Rows"
import { plannedWithValues } from "../sql/plannedWithValues"
import { ProfileRow, ProfileStatus } from "./Repo"

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

const decodeProfiles = decodeRows(ProfileRow)
const decodeHeld = decodeRows(
  Schema.Struct({
    id: ProfileId,
    removedAt: Schema.NullOr(Schema.DateFromSelf),
    status: ProfileStatus,
    bannedAt: Schema.NullOr(Schema.DateFromSelf)
  })
)
const decodeBanTarget = decodeRows(
  Schema.Struct({ role: Role, member: Schema.Boolean, bannedAt: Schema.NullOr(Schema.DateFromSelf) })
)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeWithCommunity = decodeRows(
  Schema.Struct({ ...ProfileRow.fields, communityName: Schema.String, communitySlug: Schema.String })
)
const decodeTagCounts = decodeRows(
  Schema.Struct({ tag: Schema.String, count: Schema.Number, color: Schema.NullOr(Schema.String) })
)
const decodeFound = decodeRows(Schema.Struct({ found: Schema.Boolean }))

export interface ProfileFilter {
  readonly role?: Role | undefined
  readonly tag?: string | undefined
  readonly search?: string | undefined
  readonly afterId?: string | undefined
  readonly limit: number
  /** Whether `search` also matches e-mails (staff only). */
  readonly byEmail: boolean
}

/** `%` and `_` in user input match themselves. */
const likePattern = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

/** SQL for profiles (a person's membership in one community) and their tags. */
export class ProfilesRepo extends Effect.Service<ProfilesRepo>()("@roda/core/ProfilesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`p.id, p.community_id, p.account_id, p.role, p.status, p.full_name, a.email, p.phone, p.bio,
      p.avatar_url, p.tags, p.created_at, p.updated_at`
    const select = sql`SELECT ${columns} FROM profiles p JOIN account_contacts a ON a.id = p.account_id`
    /** The profile the write `written` (`… RETURNING *`) leaves, as `find` reads it, in that one statement. */
    const returning = (written: Statement.Fragment) =>
      sql`WITH p AS (${written}) SELECT ${columns} FROM p JOIN account_contacts a ON a.id = p.account_id`.pipe(
        Effect.flatMap(decodeProfiles),
        Effect.map(first)
      )

    return {
      /** A live profile, accepted or invited (staff manage invitations; only accepted ones are members). */
      find: (communityId: CommunityId, id: string) =>
        sql`${select} WHERE p.community_id = ${communityId} AND p.id = ${id} AND p.removed_at IS NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProfiles),
          Effect.map(first)
        ),
      /** The account's profile in the community, removed or not, locked for the transaction. */
      findByAccountForUpdate: (communityId: CommunityId, accountId: AccountId) =>
        sql`SELECT id, removed_at, status, banned_at FROM profiles
          WHERE community_id = ${communityId} AND account_id = ${accountId} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeHeld),
          Effect.map(first)
        ),
      /** Fails with the SqlError of a unique violation when the account already has a profile here. */
      insert: (
        row: {
          id: string
          communityId: CommunityId
          accountId: AccountId
          role: Role
          fullName: string
          status?: ProfileStatus
        }
      ) => returning(sql`INSERT INTO profiles ${sql.insert(row)} RETURNING *`).pipe(Effect.map(Option.getOrThrow)),
      /** A removed profile back: answers it as `find` does. */
      reactivate: (id: string, role: Role, fullName: string, status: ProfileStatus) =>
        returning(
          sql`UPDATE profiles SET removed_at = NULL, role = ${role}, full_name = ${fullName}, tags = '{}',
            status = ${status}, updated_at = now() WHERE id = ${id} RETURNING *`
        ).pipe(Effect.map(Option.getOrThrow), Effect.orDie),
      /** The holder answers an invitation: the profile, when the invited one was theirs and still open. */
      accept: (communityId: CommunityId, id: string, accountId: AccountId) =>
        returning(
          sql`UPDATE profiles SET status = 'active', updated_at = now()
            WHERE community_id = ${communityId} AND id = ${id} AND account_id = ${accountId}
              AND status = 'invited' AND removed_at IS NULL RETURNING *`
        ).pipe(Effect.orDie),
      decline: (communityId: CommunityId, id: string, accountId: AccountId, at: Date) =>
        sql`UPDATE profiles SET removed_at = ${at}, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id} AND account_id = ${accountId}
            AND status = 'invited' AND removed_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** The account's own live profile in the community, accepted or invited. */
      ownProfile: (communityId: CommunityId, id: string, accountId: AccountId) =>
        sql`${select} WHERE p.community_id = ${communityId} AND p.id = ${id}
          AND p.account_id = ${accountId} AND p.removed_at IS NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProfiles),
          Effect.map(first)
        ),
      list: (communityId: CommunityId, filter: ProfileFilter) => {
        const conditions = [
          sql`p.community_id = ${communityId}`,
          sql`p.removed_at IS NULL`,
          sql`p.status = 'active'`,
          ...(filter.role ? [sql`p.role = ${filter.role}`] : []),
          ...(filter.tag ? [sql`p.tags @> ARRAY[${filter.tag}]::text[]`] : []),
          ...(filter.search
            ? [
              filter.byEmail
                ? sql`(p.full_name ILIKE ${"%" + likePattern(filter.search) + "%"} OR a.email ILIKE ${
                  "%" + likePattern(filter.search) + "%"
                })`
                : sql`p.full_name ILIKE ${"%" + likePattern(filter.search) + "%"}`
            ]
            : []),
          ...(filter.afterId ? [sql`p.id > ${filter.afterId}`] : [])
        ]
        return sql`${select} WHERE ${sql.and(conditions)} ORDER BY p.id LIMIT ${filter.limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProfiles)
        )
      },
      /**
       * Accepted members with a word of the name starting with the text, or (`byEmail`, staff only)
       * an e-mail starting with it. Each branch takes its own first `limit` in answer order, so PostgreSQL
       * either walks `(community_id, full_name, id)` and stops early (common text) or narrows by trigram
       * (`%text%`, rare text) and sorts only the matches. The e-mail test is `lower() LIKE lower()`, which is
       * what ILIKE does in UTF-8, so a `text_pattern_ops` index on `lower(email)` answers the prefix.
       */
      autocomplete: (communityId: CommunityId, text: string, limit: number, byEmail: boolean) => {
        const escaped = likePattern(text)
        const prefix = escaped + "%"
        const byName = sql`(SELECT id, full_name FROM profiles WHERE community_id = ${communityId}
              AND removed_at IS NULL AND status = 'active' AND full_name ILIKE ${"%" + escaped + "%"}
              AND (full_name ILIKE ${prefix} OR full_name ILIKE ${"% " + prefix})
              ORDER BY full_name, id LIMIT ${limit})`
        const hits = byEmail
          ? sql`${byName} UNION ALL
            (SELECT pr.id, pr.full_name FROM account_contacts ac JOIN profiles pr ON pr.account_id = ac.id
            WHERE lower(ac.email) LIKE lower(${prefix}) AND pr.community_id = ${communityId}
              AND pr.removed_at IS NULL AND pr.status = 'active' ORDER BY pr.full_name, pr.id LIMIT ${limit})`
          : byName
        // Planned with its values: which plan is right depends on how common the text is.
        return sql`${select} WHERE p.id IN (SELECT h.id FROM (${hits}) h)
          ORDER BY p.full_name, p.id LIMIT ${limit} ${plannedWithValues(sql)}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProfiles)
        )
      },
      ofAccount: (accountId: AccountId) =>
        sql`SELECT p.id, p.community_id,
          p.account_id, p.role, p.status, p.full_name, a.email, p.phone, p.bio, p.avatar_url, p.tags, p.created_at,
          p.updated_at, c.name AS community_name, c.slug AS community_slug
          FROM profiles p JOIN account_contacts a ON a.id = p.account_id JOIN communities c ON c.id = p.community_id
          WHERE p.account_id = ${accountId} AND p.removed_at IS NULL AND c.deleted_at IS NULL ORDER BY p.id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeWithCommunity)
        ),
      update: (
        communityId: CommunityId,
        id: string,
        changes: Partial<
          {
            fullName: string
            phone: string | null
            bio: string | null
            avatarUrl: string | null
            tags: ReadonlyArray<string>
            role: Role
          }
        >
      ) =>
        Object.keys(changes).length === 0
          ? Effect.void
          : sql`UPDATE profiles SET ${sql.update(changes)}, updated_at = now()
              WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** A profile of the community, removed or not, locked: its role, whether it is a member, its ban. */
      banTarget: (communityId: CommunityId, id: string) =>
        sql`SELECT role, (removed_at IS NULL AND status = 'active') AS member, banned_at FROM profiles
          WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeBanTarget),
          Effect.map(first)
        ),
      /** Removes a live, accepted profile and bans it; answers it as it was (with `find`'s columns). */
      ban: (communityId: CommunityId, id: string, at: Date, reason: string) =>
        returning(
          sql`UPDATE profiles SET removed_at = ${at}, banned_at = ${at}, ban_reason = ${reason}, updated_at = now()
            WHERE community_id = ${communityId} AND id = ${id} AND removed_at IS NULL AND status = 'active'
              AND banned_at IS NULL RETURNING *`
        ).pipe(Effect.orDie),
      /** Lifts a profile's ban (it stays removed); false when it was not banned. */
      unban: (communityId: CommunityId, id: string) =>
        sql`UPDATE profiles SET banned_at = NULL, ban_reason = NULL, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id} AND banned_at IS NOT NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      remove: (communityId: CommunityId, id: string, at: Date) =>
        sql`UPDATE profiles SET removed_at = ${at}, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** Locks the community's owner rows, so owner changes are serialised (at least one owner stays). */
      lockOwners: (communityId: CommunityId) =>
        sql`SELECT id FROM profiles WHERE community_id = ${communityId} AND role = 'owner'
          AND removed_at IS NULL AND status = 'active' ORDER BY id FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.map((r) => r.id))
        ),
      /** Kept by triggers on `profiles` (migration 0059) in the statement that changes a profile's tags or liveness. */
      tagCounts: (communityId: CommunityId) =>
        sql`SELECT c.tag, c.profiles AS count, tc.color FROM profile_tag_counts c
          LEFT JOIN tag_colors tc ON tc.community_id = c.community_id AND tc.tag = c.tag
          WHERE c.community_id = ${communityId}
          ORDER BY c.tag`.pipe(Effect.orDie, Effect.flatMap(decodeTagCounts)),
      /** Renames a tag on every live profile (merging with `to` where both are present); returns profiles changed. */
      renameTag: (communityId: CommunityId, from: string, to: string) =>
        sql`UPDATE profiles SET
            tags = array_remove(CASE WHEN ${to} = ANY(tags) THEN tags ELSE array_append(tags, ${to}) END, ${from}),
            updated_at = now()
          WHERE community_id = ${communityId} AND removed_at IS NULL AND tags @> ARRAY[${from}]::text[]
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      removeTag: (communityId: CommunityId, tag: string) =>
        sql`UPDATE profiles SET tags = array_remove(tags, ${tag}), updated_at = now()
          WHERE community_id = ${communityId} AND removed_at IS NULL AND tags @> ARRAY[${tag}]::text[]
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      moveTagColor: (communityId: CommunityId, from: string, to: string) =>
        sql`UPDATE tag_colors SET tag = ${to} WHERE community_id = ${communityId} AND tag = ${from}
          AND NOT EXISTS (SELECT 1 FROM tag_colors WHERE community_id = ${communityId} AND tag = ${to})`.pipe(
          Effect.zipRight(sql`DELETE FROM tag_colors WHERE community_id = ${communityId} AND tag = ${from}`),
          Effect.asVoid,
          Effect.orDie
        ),
      deleteTagColor: (communityId: CommunityId, tag: string) =>
        sql`DELETE FROM tag_colors WHERE community_id = ${communityId} AND tag = ${tag}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setTagColor: (communityId: CommunityId, tag: string, color: string) =>
        sql`INSERT INTO tag_colors (community_id, tag, color) VALUES (${communityId}, ${tag}, ${color})
          ON CONFLICT (community_id, tag) DO UPDATE SET color = EXCLUDED.color`.pipe(Effect.asVoid, Effect.orDie),
      tagInUse: (communityId: CommunityId, tag: string) =>
        sql`SELECT EXISTS (SELECT 1 FROM profiles WHERE community_id = ${communityId}
          AND removed_at IS NULL AND tags @> ARRAY[${tag}]::text[]) AS found`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeFound),
          Effect.map((rows) => rows[0]?.found === true)
        )
    }
  })
}) {}
