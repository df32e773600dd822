import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AccountId, CommunityId, ProfileId } from "../domain/Ids"
import { Role } from "../domain/Role"
import { decodeRow, decodeRows } from "../domain/Rows"
import type { CallerMembership, ProfileRecipient } from "./Memberships"

/** A community as its statements read it (decoded at the boundary: the id is a `CommunityId`). */
export const CommunityRow = Schema.Struct({
  id: CommunityId,
  name: Schema.String,
  slug: Schema.String,
  customDomain: Schema.NullOr(Schema.String),
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CommunityRow = typeof CommunityRow.Type

/** A community of an account, with the account's role and profile there. */
const AccountCommunityRow = Schema.Struct({
  id: CommunityId,
  name: Schema.String,
  slug: Schema.String,
  customDomain: Schema.NullOr(Schema.String),
  role: Role,
  profileId: ProfileId
})

/** The request's caller: an account and its membership (the `Memberships` contract's row). */
const CallerMembershipRow = Schema.Struct({
  id: AccountId,
  email: Schema.String,
  fullName: Schema.String,
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  profileId: Schema.NullOr(ProfileId),
  role: Schema.NullOr(Role),
  suspendedUntil: Schema.NullOr(Schema.DateFromSelf),
  slowModeSeconds: Schema.NullOr(Schema.Number)
})

/** `invited`: an existing account was added and has not accepted yet (not a member until then). */
export const ProfileStatus = Schema.Literal("active", "invited")
export type ProfileStatus = typeof ProfileStatus.Type

/** A profile with its holder's e-mail, as the profile statements read it. */
export const ProfileRow = Schema.Struct({
  id: ProfileId,
  communityId: CommunityId,
  accountId: AccountId,
  role: Role,
  status: ProfileStatus,
  fullName: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  bio: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ProfileRow = typeof ProfileRow.Type

/** An account and its membership in one community (the `Memberships` contract's row). */
export type CallerRow = CallerMembership

const SettingsRow = Schema.Struct({ settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
const EmailRow = Schema.Struct({ email: Schema.String })
const RecipientRow = Schema.Struct({
  profileId: Schema.String,
  accountId: Schema.String,
  fullName: Schema.String,
  email: Schema.String
})
const NotificationSettingsRow = Schema.Struct({
  salesEmail: Schema.NullOr(Schema.String),
  updatedAt: Schema.DateFromSelf
})

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
    /** The community's slow mode (`settings.moderation.slowModeSeconds`), read with the membership. */
    const slowMode = sql`CASE WHEN jsonb_typeof(c.settings->'moderation'->'slowModeSeconds') = 'number'
      THEN (c.settings->'moderation'->>'slowModeSeconds')::int END`
    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: CommunityRow,
      execute: (id) => sql`SELECT ${columns} FROM communities WHERE id = ${id} AND deleted_at IS NULL`
    })
    const findByAddress = SqlSchema.findOne({
      Request: Schema.String,
      Result: CommunityRow,
      execute: (address) =>
        sql`SELECT ${columns} FROM communities
          WHERE deleted_at IS NULL AND (lower(custom_domain) = lower(${address}) OR slug = lower(${address}))
          ORDER BY (lower(custom_domain) = lower(${address})) DESC LIMIT 1`
    })
    const decodeCommunities = decodeRows(AccountCommunityRow)
    const decodeCaller = decodeRow(CallerMembershipRow)
    const decodeRole = decodeRow(Schema.Struct({ role: Role }))
    const decodeSettings = decodeRows(SettingsRow)
    const decodeEmails = decodeRows(EmailRow)
    const decodeRecipients = decodeRows(RecipientRow)
    const notificationSettings = SqlSchema.findOne({
      Request: Schema.String,
      Result: NotificationSettingsRow,
      execute: (communityId) =>
        sql`SELECT sales_email, updated_at FROM notification_settings WHERE community_id = ${communityId}`
    })
    return {
      findById: (id: string) => findById(id).pipe(Effect.orDie),
      /** A live community by custom domain or slug. */
      findByAddress: (address: string) => findByAddress(address).pipe(Effect.orDie),
      insert: (row: { id: string; name: string; slug: string; customDomain: string | null; createdBy: string }) =>
        sql`INSERT INTO communities ${sql.insert(row)}`.pipe(Effect.asVoid),
      update: (id: string, changes: { name?: string; slug?: string; customDomain?: string | null }) =>
        sql`UPDATE communities SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} AND deleted_at IS NULL`
          .pipe(
            Effect.asVoid
          ),
      mergeSettings: (id: string, settings: Record<string, unknown>) =>
        sql`UPDATE communities
          SET settings = settings || ${JSON.stringify(settings)}::jsonb
            -- \`moderation\` merges one level deeper: a PATCH of one of its fields keeps the others
            || CASE WHEN ${JSON.stringify(settings)}::jsonb ? 'moderation'
              THEN jsonb_build_object('moderation',
                coalesce(settings->'moderation', '{}'::jsonb) || (${JSON.stringify(settings)}::jsonb->'moderation'))
              ELSE '{}'::jsonb END,
            updated_at = now()
          WHERE id = ${id} RETURNING settings`.pipe(
          Effect.flatMap(decodeSettings),
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
        sql`SELECT c.id, c.name, c.slug, c.custom_domain, p.role, p.id AS profile_id
          FROM profiles p JOIN communities c ON c.id = p.community_id
          WHERE p.account_id = ${accountId} AND p.removed_at IS NULL AND p.status = 'active'
            AND c.deleted_at IS NULL
          ORDER BY p.id`.pipe(Effect.flatMap(decodeCommunities), Effect.orDie),
      /**
       * The account and its live, accepted profile in a live community, in one statement (the
       * request's caller): none when there is no such account; `profileId` null when not a member (an
       * invitation is no membership).
       */
      callerIn: (communityId: CommunityId, accountId: AccountId, sessionId?: string) =>
        sql`SELECT a.id, a.email, a.full_name, a.email_verified_at, a.created_at,
            p.id AS profile_id, p.role, p.suspended_until,
            ${slowMode} AS slow_mode_seconds
          ${callerFrom(communityId, accountId, sessionId)}`.pipe(
          Effect.flatMap((rows) => rows.length === 0 ? Effect.succeedNone : Effect.asSome(decodeCaller(rows[0]))),
          Effect.orDie
        ),
      /** `callerIn`'s membership alone, as a query for another statement (`Memberships.callerRow`). */
      callerRow: (communityId: CommunityId, accountId: AccountId, sessionId?: string) =>
        sql`SELECT p.id AS profile_id, p.role, p.suspended_until ${callerFrom(communityId, accountId, sessionId)}`,
      /** The role of a live, accepted profile of the community. */
      profileRole: (communityId: CommunityId, profileId: ProfileId) =>
        sql`SELECT role FROM profiles WHERE community_id = ${communityId} AND id = ${profileId}
          AND removed_at IS NULL AND status = 'active'`.pipe(
          Effect.flatMap((rows) =>
            rows.length === 0 ? Effect.succeedNone : Effect.map(decodeRole(rows[0]), (row) => Option.some(row.role))
          ),
          Effect.orDie
        ),
      /** Sets (a date) or clears (null) a live, accepted profile's suspension; false when there is none. */
      setSuspension: (communityId: CommunityId, profileId: ProfileId, until: Date | null) =>
        sql`UPDATE profiles SET suspended_until = ${until}
          WHERE community_id = ${communityId} AND id = ${profileId} AND removed_at IS NULL AND status = 'active'
          RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** Login e-mails of the community's live, accepted owners (money notices: disputes). */
      ownerEmails: (communityId: string) =>
        sql`SELECT a.email FROM profiles p JOIN account_contacts a ON a.id = p.account_id
          WHERE p.community_id = ${communityId} AND p.role = 'owner' AND p.removed_at IS NULL
            AND p.status = 'active' ORDER BY a.email`.pipe(
          Effect.flatMap(decodeEmails),
          Effect.map((rows) => rows.map((row) => row.email)),
          Effect.orDie
        ),
      /** Live, accepted profiles among `profileIds`, with name and login e-mail (certificates). */
      recipients: (communityId: string, profileIds: ReadonlyArray<string>) =>
        profileIds.length === 0
          ? Effect.succeed<ReadonlyArray<ProfileRecipient>>([])
          : sql`SELECT p.id AS profile_id, p.account_id, p.full_name, a.email
            FROM profiles p JOIN account_contacts a ON a.id = p.account_id
            WHERE p.community_id = ${communityId} AND p.id IN ${sql.in(profileIds)}
              AND p.removed_at IS NULL AND p.status = 'active'`.pipe(Effect.flatMap(decodeRecipients), Effect.orDie),
      notificationSettings: (communityId: string) => notificationSettings(communityId).pipe(Effect.orDie),
      setNotificationSettings: (communityId: CommunityId, salesEmail: string | null) =>
        sql`INSERT INTO notification_settings (community_id, sales_email) VALUES (${communityId}, ${salesEmail})
          ON CONFLICT (community_id) DO UPDATE SET sales_email = EXCLUDED.sales_email, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
