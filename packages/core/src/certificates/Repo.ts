import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AccountId, CommunityId, ProfileId, SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import {
  batchStatuses,
  type CertificateStatus,
  certificateStatuses,
  type Issuer,
  issuers,
  orientations,
  pageSizes,
  type TemplateStatus,
  templateStatuses
} from "./Policy"

const templateFields = {
  name: Schema.String,
  title: Schema.String,
  body: Schema.String,
  fontId: Schema.String,
  orientation: Schema.Literal(...orientations),
  pageSize: Schema.Literal(...pageSizes),
  background: Schema.String,
  logoKey: Schema.NullOr(Schema.String),
  signatureKey: Schema.NullOr(Schema.String)
}
export type TemplateFields = Schema.Struct.Type<typeof templateFields>

export const TemplateRow = Schema.Struct({
  ...templateFields,
  id: Schema.String,
  communityId: CommunityId,
  spaceId: Schema.String,
  status: Schema.Literal(...templateStatuses),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type TemplateRow = typeof TemplateRow.Type

export const BatchRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  spaceId: Schema.String,
  templateId: Schema.String,
  createdByProfileId: Schema.NullOr(Schema.String),
  source: Schema.String,
  status: Schema.Literal(...batchStatuses),
  total: Schema.Number,
  issued: Schema.Number,
  failed: Schema.Number,
  skipped: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  finishedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type BatchRow = typeof BatchRow.Type

export const CertificateRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  spaceId: SpaceId,
  templateId: Schema.String,
  batchId: Schema.NullOr(Schema.String),
  profileId: ProfileId,
  accountId: AccountId,
  recipientName: Schema.String,
  recipientEmail: Schema.String,
  spaceTitle: Schema.String,
  code: Schema.String,
  status: Schema.Literal(...certificateStatuses),
  attempts: Schema.Number,
  lastError: Schema.NullOr(Schema.String),
  pdfKey: Schema.NullOr(Schema.String),
  imageKey: Schema.NullOr(Schema.String),
  indexing: Schema.Boolean,
  revokedAt: Schema.NullOr(Schema.DateFromSelf),
  revokeReason: Schema.NullOr(Schema.String),
  supersededById: Schema.NullOr(Schema.String),
  supersedesId: Schema.NullOr(Schema.String),
  issuedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CertificateRow = typeof CertificateRow.Type

/** A certificate with what its pages show of the template and the successor. */
export const CertificateView = Schema.Struct({
  ...CertificateRow.fields,
  templateName: Schema.String,
  title: Schema.String,
  supersededByCode: Schema.NullOr(Schema.String)
})
export type CertificateView = typeof CertificateView.Type

const decodeRule = decodeRows(
  Schema.Struct({ issuer: Schema.Literal(...issuers), spaceTitle: Schema.String, updatedAt: Schema.DateFromSelf })
)
const decodeTemplates = decodeRows(TemplateRow)
const decodeBatches = decodeRows(BatchRow)
const decodeCertificates = decodeRows(CertificateRow)
const decodeViews = decodeRows(CertificateView)
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeLeaseEnd = decodeRows(Schema.Struct({ until: Schema.NullOr(Schema.DateFromSelf) }))
const decodeIssuerKey = decodeRows(
  Schema.Struct({ kid: Schema.String, publicJwk: Schema.Unknown, privateJwk: Schema.Unknown })
)
const decodePublicKeys = decodeRows(
  Schema.Struct({ kid: Schema.String, publicJwk: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
)

export type NewCertificate = {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly templateId: string
  readonly batchId: string | null
  readonly profileId: string
  readonly accountId: string
  readonly recipientName: string
  readonly recipientEmail: string
  readonly spaceTitle: string
  readonly code: string
  readonly supersedesId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface CertificateFilter {
  readonly spaceId?: string | undefined
  readonly templateId?: string | undefined
  readonly batchId?: string | undefined
  readonly profileId?: string | undefined
  readonly status?: CertificateStatus | undefined
  readonly after?: readonly [string, string] | undefined
  readonly limit: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL of the certificates feature (its own tables only). */
export class CertificatesRepo extends Effect.Service<CertificatesRepo>()("@roda/core/CertificatesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** Certificates of `source` (the table, or a CTE of rows just written) as `find` answers them. */
    const certificatesOf = (source: Statement.Fragment) =>
      sql`SELECT c.*, t.name AS template_name, t.title, n.code AS superseded_by_code
      FROM ${source} c
      JOIN certificate_templates t ON t.community_id = c.community_id AND t.id = c.template_id
      LEFT JOIN certificates n ON n.id = c.superseded_by_id`
    const certificateSelect = certificatesOf(sql`certificates`)

    return {
      // Space rules
      rule: (communityId: CommunityId, spaceId: string) =>
        sql`SELECT issuer, space_title, updated_at
          FROM certificate_space_rules
          WHERE community_id = ${communityId} AND space_id = ${spaceId}`.pipe(
          Effect.flatMap(decodeRule),
          Effect.map(first),
          Effect.orDie
        ),
      setRule: (communityId: CommunityId, spaceId: string, issuer: Issuer, spaceTitle: string, now: Date) =>
        sql`INSERT INTO certificate_space_rules (community_id, space_id, issuer, space_title, updated_at)
          VALUES (${communityId}, ${spaceId}, ${issuer}, ${spaceTitle}, ${now})
          ON CONFLICT (community_id, space_id) DO UPDATE SET issuer = EXCLUDED.issuer,
            space_title = EXCLUDED.space_title, updated_at = EXCLUDED.updated_at`
          .pipe(Effect.asVoid, Effect.orDie),

      // Templates
      insertTemplate: (row: TemplateRow) =>
        sql`INSERT INTO certificate_templates ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      findTemplate: (communityId: CommunityId, id: string) =>
        sql`SELECT * FROM certificate_templates WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeTemplates),
          Effect.map(first),
          Effect.orDie
        ),
      lockTemplate: (communityId: CommunityId, id: string) =>
        sql`SELECT * FROM certificate_templates WHERE community_id = ${communityId} AND id = ${id}
          FOR UPDATE`.pipe(Effect.flatMap(decodeTemplates), Effect.map(first), Effect.orDie),
      updateTemplate: (communityId: CommunityId, id: string, changes: Partial<TemplateFields>, now: Date) =>
        sql`UPDATE certificate_templates SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setTemplateStatus: (communityId: CommunityId, id: string, status: TemplateStatus, now: Date) =>
        sql`UPDATE certificate_templates SET status = ${status}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      listTemplates: (
        communityId: CommunityId,
        filter: {
          spaceId?: string | undefined
          status?: TemplateStatus | undefined
          after?: readonly [string, string] | undefined
          limit: number
        }
      ) =>
        sql`SELECT * FROM certificate_templates
          WHERE ${
          sql.and([
            sql`community_id = ${communityId}`,
            ...(filter.spaceId ? [sql`space_id = ${filter.spaceId}`] : []),
            ...(filter.status ? [sql`status = ${filter.status}`] : []),
            ...(filter.after ? [sql`(created_at, id) > (${new Date(filter.after[0])}, ${filter.after[1]})`] : [])
          ])
        }
          ORDER BY created_at, id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeTemplates)),

      // Batches
      insertBatch: (row: Omit<BatchRow, "issued" | "failed" | "finishedAt">) =>
        sql`INSERT INTO certificate_batches ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      findBatch: (communityId: CommunityId, id: string) =>
        sql`SELECT * FROM certificate_batches WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeBatches),
          Effect.map(first),
          Effect.orDie
        ),
      /** Marks a queued batch as processing (a no-op otherwise). */
      startBatch: (batchId: string, now: Date) =>
        sql`UPDATE certificate_batches SET status = 'processing', updated_at = ${now}
          WHERE id = ${batchId} AND status = 'queued'`.pipe(Effect.asVoid, Effect.orDie),
      /**
       * Adds to the counters under the row's lock and settles the status: `processing` while some
       * recipients are not accounted for, else completed (with errors when any failed).
       */
      countBatch: (batchId: string, delta: { issued?: number; failed?: number }, now: Date) =>
        sql`UPDATE certificate_batches b SET issued = b.issued + ${delta.issued ?? 0},
            failed = b.failed + ${delta.failed ?? 0}, updated_at = ${now},
            status = CASE
              WHEN b.issued + ${delta.issued ?? 0} + b.failed + ${
          delta.failed ?? 0
        } + b.skipped < b.total THEN 'processing'
              WHEN b.failed + ${delta.failed ?? 0} > 0 THEN 'completed_with_errors'
              ELSE 'completed' END,
            finished_at = CASE
              WHEN b.issued + ${delta.issued ?? 0} + b.failed + ${delta.failed ?? 0} + b.skipped < b.total THEN NULL
              ELSE ${now}::timestamptz END
          WHERE b.id = ${batchId}`.pipe(Effect.asVoid, Effect.orDie),

      // Certificates
      /** Inserts the rows whose recipient holds no live certificate of the template; the ids inserted. */
      insertCertificates: (rows: ReadonlyArray<NewCertificate>) =>
        rows.length === 0
          ? Effect.succeed([] as ReadonlyArray<string>)
          : sql`INSERT INTO certificates ${sql.insert(rows as Array<NewCertificate>)}
            ON CONFLICT (community_id, template_id, profile_id) WHERE status NOT IN ('revoked', 'superseded')
            DO NOTHING RETURNING id`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((r) => r.map((row) => row.id)),
            Effect.orDie
          ),
      find: (communityId: CommunityId, id: string) =>
        sql`${certificateSelect} WHERE c.community_id = ${communityId} AND c.id = ${id}`.pipe(
          Effect.flatMap(decodeViews),
          Effect.map(first),
          Effect.orDie
        ),
      findById: (id: string) =>
        sql`${certificateSelect} WHERE c.id = ${id}`.pipe(Effect.flatMap(decodeViews), Effect.map(first), Effect.orDie),
      findByCode: (code: string) =>
        sql`${certificateSelect} WHERE c.code = ${code}`.pipe(
          Effect.flatMap(decodeViews),
          Effect.map(first),
          Effect.orDie
        ),
      lock: (communityId: CommunityId, id: string) =>
        sql`SELECT * FROM certificates WHERE community_id = ${communityId} AND id = ${id}
          FOR UPDATE`.pipe(Effect.flatMap(decodeCertificates), Effect.map(first), Effect.orDie),
      list: (communityId: CommunityId, filter: CertificateFilter) =>
        sql`${certificateSelect}
          WHERE ${
          sql.and([
            sql`c.community_id = ${communityId}`,
            ...(filter.spaceId ? [sql`c.space_id = ${filter.spaceId}`] : []),
            ...(filter.templateId ? [sql`c.template_id = ${filter.templateId}`] : []),
            ...(filter.batchId ? [sql`c.batch_id = ${filter.batchId}`] : []),
            ...(filter.profileId ? [sql`c.profile_id = ${filter.profileId}`] : []),
            ...(filter.status ? [sql`c.status = ${filter.status}`] : []),
            ...(filter.after ? [sql`(c.created_at, c.id) > (${new Date(filter.after[0])}, ${filter.after[1]})`] : [])
          ])
        }
          ORDER BY c.created_at, c.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeViews)),
      listOfAccount: (accountId: string, filter: { after?: readonly [string, string] | undefined; limit: number }) =>
        sql`${certificateSelect}
          WHERE c.account_id = ${accountId} AND c.status IN ('issued', 'revoked', 'superseded')
          ${filter.after ? sql`AND (c.created_at, c.id) > (${new Date(filter.after[0])}, ${filter.after[1]})` : sql``}
          ORDER BY c.created_at, c.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeViews)),
      update: (
        communityId: CommunityId,
        id: string,
        changes: Partial<Omit<CertificateRow, "id" | "communityId">>,
        now: Date
      ) =>
        sql`UPDATE certificates SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM certificates WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /**
       * Claims the next certificate of a batch (or one certificate) to generate: `pending`, or
       * `generating` with an expired lease (its worker died). Counts the attempt.
       */
      claim: (work: { batchId: string | null; certificateId: string | null }, now: Date, leaseUntil: Date) =>
        sql`UPDATE certificates SET status = 'generating', attempts = attempts + 1,
            locked_until = ${leaseUntil}, updated_at = ${now}
          WHERE id = (
            SELECT id FROM certificates
            WHERE ${work.batchId !== null ? sql`batch_id = ${work.batchId}` : sql`id = ${work.certificateId}`}
              AND (status = 'pending' OR (status = 'generating' AND locked_until < ${now}))
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING *`.pipe(Effect.flatMap(decodeCertificates), Effect.map(first), Effect.orDie),
      /** When the earliest lease of the work's certificates still being generated ends (none: null). */
      leaseEnd: (work: { batchId: string | null; certificateId: string | null }) =>
        sql`SELECT min(locked_until) AS until FROM certificates
          WHERE ${work.batchId !== null ? sql`batch_id = ${work.batchId}` : sql`id = ${work.certificateId}`}
            AND status = 'generating'`.pipe(
          Effect.flatMap(decodeLeaseEnd),
          Effect.map((rows) => rows[0]?.until ?? null),
          Effect.orDie
        ),
      /** `generating -> issued` for the worker that holds this attempt; false when it lost the row. */
      /** `generating -> issued`: the certificate as `find` reads it; none when the worker lost the row. */
      markIssued: (row: CertificateRow, pdfKey: string, now: Date) =>
        sql`WITH issued AS (
            UPDATE certificates SET status = 'issued', pdf_key = ${pdfKey}, issued_at = ${now},
              locked_until = NULL, last_error = NULL, updated_at = ${now}
            WHERE id = ${row.id} AND status = 'generating' AND attempts = ${row.attempts} RETURNING *
          )
          ${certificatesOf(sql`issued`)}`.pipe(
          Effect.flatMap(decodeViews),
          Effect.map(first),
          Effect.orDie
        ),
      /** `generating -> pending` (attempts left) or `-> failed`; false when the worker lost the row. */
      markError: (row: CertificateRow, status: "pending" | "failed", error: string, now: Date) =>
        sql`UPDATE certificates SET status = ${status}, locked_until = NULL,
            last_error = ${error}, updated_at = ${now}
          WHERE id = ${row.id} AND status = 'generating' AND attempts = ${row.attempts} RETURNING id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      // Issuer keys
      issuerKey: (communityId: CommunityId) =>
        sql`SELECT kid, public_jwk, private_jwk
          FROM certificate_issuer_keys WHERE community_id = ${communityId}`.pipe(
          Effect.flatMap(decodeIssuerKey),
          Effect.map(first),
          Effect.orDie
        ),
      insertIssuerKey: (communityId: CommunityId, kid: string, publicJwk: unknown, privateJwk: unknown, now: Date) =>
        sql`INSERT INTO certificate_issuer_keys (community_id, kid, public_jwk, private_jwk, created_at)
          VALUES (${communityId}, ${kid}, ${JSON.stringify(publicJwk)}::jsonb, ${
          JSON.stringify(privateJwk)
        }::jsonb, ${now})
          ON CONFLICT (community_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      publicKeys: sql`SELECT kid, public_jwk
        FROM certificate_issuer_keys ORDER BY created_at, kid`.pipe(Effect.orDie, Effect.flatMap(decodePublicKeys))
    }
  })
}) {}
