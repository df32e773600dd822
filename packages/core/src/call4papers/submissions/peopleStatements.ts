import { type SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ProfileId } from "../../domain/Ids"
import { rowsOf, SubmissionRow } from "./rows"
import type { SubmissionSql } from "./submissionSql"

const decodeEmails = rowsOf(Schema.Struct({ email: Schema.String }))
const decodeContacts = rowsOf(Schema.Struct({ profileId: ProfileId, email: Schema.String }))
const decodeProfileIds = rowsOf(Schema.Struct({ profileId: ProfileId }))
const decodeBank = rowsOf(
  Schema.Struct({ profileId: ProfileId, fullName: Schema.String, avatarUrl: Schema.NullOr(Schema.String) })
)
const decodeSpeakerSubmissions = rowsOf(
  Schema.Struct({ ...SubmissionRow.fields, speakerProfileId: ProfileId, speakerRole: Schema.String })
)

/** People around submissions: e-mails for notices, organisers, the speaker bank and speaker invitations. */
export const peopleStatements = (sql: SqlClient.SqlClient, { ownedBy, select }: SubmissionSql) => ({
  /** E-mail addresses of active profiles (for notices; never shown to members). */
  emailsOf: (communityId: string, profileIds: ReadonlyArray<string>) =>
    profileIds.length === 0
      ? Effect.succeed([] as ReadonlyArray<string>)
      : sql`SELECT DISTINCT a.email FROM member_cards p JOIN account_contacts a ON a.id = p.account_id
          WHERE p.community_id = ${communityId} AND ${sql.in("p.id", profileIds)} AND p.removed_at IS NULL
          ORDER BY a.email`.pipe(
        Effect.flatMap(decodeEmails),
        Effect.map((rows) => rows.map((row) => row.email)),
        Effect.orDie
      ),
  /** The speakers (proposer and accepted co-speakers) of a submission who are active members, with their e-mail. */
  speakerContacts: (communityId: string, submissionId: string) =>
    sql`SELECT sp.profile_id, a.email FROM call4papers_submission_speakers sp
        JOIN member_cards p ON p.community_id = sp.community_id AND p.id = sp.profile_id AND p.removed_at IS NULL
        JOIN account_contacts a ON a.id = p.account_id
        WHERE sp.community_id = ${communityId} AND sp.submission_id = ${submissionId} AND sp.status = 'accepted'
        ORDER BY sp.position`.pipe(Effect.flatMap(decodeContacts), Effect.orDie),
  /** The organisation side of a call: its creator and its accepted owners. */
  organiserProfiles: (communityId: string, callId: string) =>
    sql`SELECT created_by_profile_id AS profile_id FROM call4papers_calls
        WHERE community_id = ${communityId} AND id = ${callId}
        UNION SELECT profile_id FROM call4papers_owners
        WHERE community_id = ${communityId} AND call_id = ${callId} AND status = 'accepted'`.pipe(
      Effect.flatMap(decodeProfileIds),
      Effect.map((rows) => rows.map((row) => row.profileId)),
      Effect.orDie
    ),
  /** Whether the profile owns (accepted) at least one live call of the community. */
  ownsAnyCall: (communityId: string, profileId: string) =>
    sql`SELECT 1 AS one FROM call4papers_owners o
        JOIN call4papers_calls c ON c.community_id = o.community_id AND c.id = o.call_id AND c.deleted_at IS NULL
        WHERE o.community_id = ${communityId} AND o.profile_id = ${profileId} AND o.status = 'accepted'
        LIMIT 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
  /**
   * Speakers of the bank (anyone with a non-draft submission in a live call), by profile id. With
   * `ownerProfileId`, only the calls that profile owns (accepted) count.
   */
  bank: (
    communityId: string,
    filter: { after?: readonly [string] | undefined; limit: number; ownerProfileId?: string | undefined }
  ) =>
    sql`
        SELECT p.id AS profile_id, p.full_name, p.avatar_url FROM member_cards p
        WHERE p.community_id = ${communityId} AND p.removed_at IS NULL
          AND EXISTS (SELECT 1 FROM call4papers_submission_speakers sp
            JOIN call4papers_submissions s ON s.community_id = sp.community_id AND s.id = sp.submission_id
              AND s.status <> 'rascunho'
            JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id AND c.deleted_at IS NULL
            WHERE sp.community_id = p.community_id AND sp.profile_id = p.id AND sp.status = 'accepted'
              ${ownedBy(filter.ownerProfileId)})
          ${filter.after ? sql`AND p.id > ${filter.after[0]}` : sql``}
        ORDER BY p.id LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(decodeBank), Effect.orDie),
  /**
   * The non-draft submissions of these speakers across the community's live calls (with
   * `ownerProfileId`, of the calls that profile owns only).
   */
  submissionsOfSpeakers: (communityId: string, profileIds: ReadonlyArray<string>, ownerProfileId?: string) =>
    profileIds.length === 0
      ? Effect.succeed([] as ReadonlyArray<SubmissionRow & { speakerProfileId: string; speakerRole: string }>)
      : sql`
          SELECT q.*, sp.profile_id AS speaker_profile_id, sp.role AS speaker_role
          FROM call4papers_submission_speakers sp
          JOIN (${select} WHERE s.community_id = ${communityId} AND s.status <> 'rascunho'
            ${ownedBy(ownerProfileId)}) q
            ON q.community_id = sp.community_id AND q.id = sp.submission_id
          WHERE sp.community_id = ${communityId} AND ${sql.in("sp.profile_id", profileIds)}
            AND sp.status = 'accepted'
          ORDER BY sp.profile_id, q.id`.pipe(Effect.flatMap(decodeSpeakerSubmissions), Effect.orDie),
  /** Whether the profile is in the bank (with `ownerProfileId`, the bank of that owner's calls). */
  inBank: (communityId: string, profileId: string, ownerProfileId?: string) =>
    sql`SELECT 1 AS one FROM call4papers_submission_speakers sp
        JOIN call4papers_submissions s ON s.community_id = sp.community_id AND s.id = sp.submission_id
          AND s.status <> 'rascunho'
        JOIN call4papers_calls c ON c.community_id = s.community_id AND c.id = s.call_id AND c.deleted_at IS NULL
        JOIN member_cards p ON p.community_id = sp.community_id AND p.id = sp.profile_id AND p.removed_at IS NULL
        WHERE sp.community_id = ${communityId} AND sp.profile_id = ${profileId} AND sp.status = 'accepted'
          ${ownedBy(ownerProfileId)}
        LIMIT 1`.pipe(
      Effect.map((rows) => rows.length > 0),
      Effect.orDie
    ),
  /** Records an invitation; false when this person was already invited to this call. */
  insertInvitation: (row: {
    id: string
    communityId: string
    callId: string
    profileId: string
    invitedByProfileId: string
    message: string | null
    createdAt: Date
  }) =>
    sql`INSERT INTO call4papers_speaker_invitations ${sql.insert(row)}
        ON CONFLICT (community_id, call_id, profile_id) DO NOTHING RETURNING id`.pipe(
      Effect.map((rows) => rows.length > 0),
      Effect.orDie
    )
})
