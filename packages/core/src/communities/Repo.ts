import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { AccountId, CommunityId, ProfileId } from "../domain/Ids"
import type { Role } from "../domain/Role"
import type { CallerMembership, ProfileRecipient } from "./Memberships"

export interface CommunityRow {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly customDomain: string | null
  readonly settings: Record<string, unknown>
  readonly createdAt: Date
  readonly updatedAt: Date
}

export type ProfileStatus = "active" | "invited"

export interface ProfileRow {
  readonly id: string
  readonly communityId: string
  readonly accountId: string
  readonly role: Role
  /** `invited`: an existing account was added and has not accepted yet (not a member until then). */
  readonly status: ProfileStatus
  readonly fullName: string
  readonly email: string
  readonly phone: string | null
  readonly bio: string | null
  readonly avatarUrl: string | null
  readonly tags: ReadonlyArray<string>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** An account and its membership in one community (the `Memberships` contract's row). */
export type CallerRow = CallerMembership

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for communities and their notification settings. */
export class CommunitiesRepo extends Effect.Service<CommunitiesRepo>()("@roda/core/CommunitiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, name, slug, custom_domain, settings, created_at, updated_at`
    /**
     * The account (with `sessionId`, only while that session of it is open: identity's read
     * contract), joined with its live, accepted profile in the community if it is alive.
     */
    const callerFrom = (communityId: CommunityId, accountId: AccountId, sessionId: string | undefined) =>
      sql`FROM account_contacts a
          ${
        sessionId === undefined
          ? sql``
          : sql`JOIN session_states s ON s.id = ${sessionId} AND s.account_id = a.id AND s.ended_at IS NULL`
      }
          LEFT JOIN (profiles p JOIN communities c ON c.id = p.community_id AND c.deleted_at IS NULL)
            ON p.account_id = a.id AND p.community_id = ${communityId}
              AND p.removed_at IS NULL AND p.status = 'active'
          WHERE a.id = ${accountId}`
    return {
      findById: (id: string) =>
        sql<CommunityRow>`SELECT ${columns} FROM communities WHERE id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      /** A live community by custom domain or slug. */
      findByAddress: (address: string) =>
        sql<CommunityRow>`SELECT ${columns} FROM communities
          WHERE deleted_at IS NULL AND (lower(custom_domain) = lower(${address}) OR slug = lower(${address}))
          ORDER BY (lower(custom_domain) = lower(${address})) DESC LIMIT 1`.pipe(Effect.map(first), Effect.orDie),
      insert: (row: { id: string; name: string; slug: string; customDomain: string | null; createdBy: string }) =>
        sql`INSERT INTO communities ${sql.insert(row)}`.pipe(Effect.asVoid),
      update: (id: string, changes: { name?: string; slug?: string; customDomain?: string | null }) =>
        sql`UPDATE communities SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} AND deleted_at IS NULL`
          .pipe(
            Effect.asVoid
          ),
      mergeSettings: (id: string, settings: Record<string, unknown>) =>
        sql<{ settings: Record<string, unknown> }>`UPDATE communities
          SET settings = settings || ${JSON.stringify(settings)}::jsonb, updated_at = now()
          WHERE id = ${id} RETURNING settings`.pipe(
          Effect.map((rows) => rows[0]?.settings ?? {}),
          Effect.orDie
        ),
      softDelete: (id: string, at: Date) =>
        sql`UPDATE communities SET deleted_at = ${at} WHERE id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Communities the account belongs to, with its role in each, oldest membership first. */
      ofAccount: (accountId: AccountId) =>
        sql<{ id: string; name: string; slug: string; customDomain: string | null; role: Role; profileId: ProfileId }>`
          SELECT c.id, c.name, c.slug, c.custom_domain, p.role, p.id AS profile_id
          FROM profiles p JOIN communities c ON c.id = p.community_id
          WHERE p.account_id = ${accountId} AND p.removed_at IS NULL AND p.status = 'active'
            AND c.deleted_at IS NULL
          ORDER BY p.id`.pipe(Effect.orDie),
      /**
       * The account and its live, accepted profile in a live community, in one statement (the
       * request's caller): none when there is no such account; `profileId` null when not a member (an
       * invitation is no membership).
       */
      callerIn: (communityId: CommunityId, accountId: AccountId, sessionId?: string) =>
        sql<CallerRow>`SELECT a.id, a.email, a.full_name, a.email_verified_at, a.created_at,
            p.id AS profile_id, p.role
          ${callerFrom(communityId, accountId, sessionId)}`.pipe(Effect.map(first), Effect.orDie),
      /** `callerIn`'s membership alone, as a query for another statement (`Memberships.callerRow`). */
      callerRow: (communityId: CommunityId, accountId: AccountId, sessionId?: string) =>
        sql`SELECT p.id AS profile_id, p.role ${callerFrom(communityId, accountId, sessionId)}`,
      /** The role of a live, accepted profile of the community. */
      profileRole: (communityId: CommunityId, profileId: ProfileId) =>
        sql<{ role: Role }>`SELECT role FROM profiles WHERE community_id = ${communityId} AND id = ${profileId}
          AND removed_at IS NULL AND status = 'active'`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.role)),
          Effect.orDie
        ),
      /** Login e-mails of the community's live, accepted owners (money notices: disputes). */
      ownerEmails: (communityId: string) =>
        sql<{ readonly email: string }>`SELECT a.email FROM profiles p JOIN account_contacts a ON a.id = p.account_id
          WHERE p.community_id = ${communityId} AND p.role = 'owner' AND p.removed_at IS NULL
            AND p.status = 'active' ORDER BY a.email`.pipe(
          Effect.map((rows) => rows.map((row) => row.email)),
          Effect.orDie
        ),
      /** Live, accepted profiles among `profileIds`, with name and login e-mail (certificates). */
      recipients: (communityId: string, profileIds: ReadonlyArray<string>) =>
        profileIds.length === 0
          ? Effect.succeed([])
          : sql<ProfileRecipient>`SELECT p.id AS profile_id, p.account_id, p.full_name, a.email
            FROM profiles p JOIN account_contacts a ON a.id = p.account_id
            WHERE p.community_id = ${communityId} AND p.id IN ${sql.in(profileIds)}
              AND p.removed_at IS NULL AND p.status = 'active'`.pipe(Effect.orDie),
      notificationSettings: (communityId: string) =>
        sql<{ salesEmail: string | null; updatedAt: Date }>`SELECT sales_email, updated_at
          FROM notification_settings WHERE community_id = ${communityId}`.pipe(Effect.map(first), Effect.orDie),
      setNotificationSettings: (communityId: CommunityId, salesEmail: string | null) =>
        sql`INSERT INTO notification_settings (community_id, sales_email) VALUES (${communityId}, ${salesEmail})
          ON CONFLICT (community_id) DO UPDATE SET sales_email = EXCLUDED.sales_email, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
