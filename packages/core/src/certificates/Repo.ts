import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { BatchStatus, CertificateStatus, Issuer, Orientation, PageSize, TemplateStatus } from "./Policy"

export type TemplateFields = {
  readonly name: string
  readonly title: string
  readonly body: string
  readonly fontId: string
  readonly orientation: Orientation
  readonly pageSize: PageSize
  readonly background: string
  readonly logoKey: string | null
  readonly signatureKey: string | null
}

export type TemplateRow = TemplateFields & {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly status: TemplateStatus
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface BatchRow {
  readonly id: string
  readonly communityId: string
  readonly spaceId: string
  readonly templateId: string
  readonly createdByProfileId: string | null
  readonly source: string
  readonly status: BatchStatus
  readonly total: number
  readonly issued: number
  readonly failed: number
  readonly skipped: number
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly finishedAt: Date | null
}

export interface CertificateRow {
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
  readonly status: CertificateStatus
  readonly attempts: number
  readonly lastError: string | null
  readonly pdfKey: string | null
  readonly imageKey: string | null
  readonly indexing: boolean
  readonly revokedAt: Date | null
  readonly revokeReason: string | null
  readonly supersededById: string | null
  readonly supersedesId: string | null
  readonly issuedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A certificate with what its pages show of the template and the successor. */
export type CertificateView = CertificateRow & {
  readonly templateName: string
  readonly title: string
  readonly supersededByCode: string | null
}

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
    const certificateSelect = sql`SELECT c.*, t.name AS template_name, t.title, n.code AS superseded_by_code
      FROM certificates c
      JOIN certificate_templates t ON t.community_id = c.community_id AND t.id = c.template_id
      LEFT JOIN certificates n ON n.id = c.superseded_by_id`

    return {
      // Space rules
      rule: (communityId: string, spaceId: string) =>
        sql<{ issuer: Issuer; spaceTitle: string; updatedAt: Date }>`SELECT issuer, space_title, updated_at
          FROM certificate_space_rules
          WHERE community_id = ${communityId} AND space_id = ${spaceId}`.pipe(Effect.map(first), Effect.orDie),
      setRule: (communityId: string, spaceId: string, issuer: Issuer, spaceTitle: string, now: Date) =>
        sql`INSERT INTO certificate_space_rules (community_id, space_id, issuer, space_title, updated_at)
          VALUES (${communityId}, ${spaceId}, ${issuer}, ${spaceTitle}, ${now})
          ON CONFLICT (community_id, space_id) DO UPDATE SET issuer = EXCLUDED.issuer,
            space_title = EXCLUDED.space_title, updated_at = EXCLUDED.updated_at`
          .pipe(Effect.asVoid, Effect.orDie),

      // Templates
      insertTemplate: (row: TemplateRow) =>
        sql`INSERT INTO certificate_templates ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      findTemplate: (communityId: string, id: string) =>
        sql<TemplateRow>`SELECT * FROM certificate_templates WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      lockTemplate: (communityId: string, id: string) =>
        sql<TemplateRow>`SELECT * FROM certificate_templates WHERE community_id = ${communityId} AND id = ${id}
          FOR UPDATE`.pipe(Effect.map(first), Effect.orDie),
      updateTemplate: (communityId: string, id: string, changes: Partial<TemplateFields>, now: Date) =>
        sql`UPDATE certificate_templates SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      setTemplateStatus: (communityId: string, id: string, status: TemplateStatus, now: Date) =>
        sql`UPDATE certificate_templates SET status = ${status}, updated_at = ${now}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      listTemplates: (
        communityId: string,
        filter: {
          spaceId?: string | undefined
          status?: TemplateStatus | undefined
          after?: readonly [string, string] | undefined
          limit: number
        }
      ) =>
        sql<TemplateRow>`SELECT * FROM certificate_templates
          WHERE ${
          sql.and([
            sql`community_id = ${communityId}`,
            ...(filter.spaceId ? [sql`space_id = ${filter.spaceId}`] : []),
            ...(filter.status ? [sql`status = ${filter.status}`] : []),
            ...(filter.after ? [sql`(created_at, id) > (${new Date(filter.after[0])}, ${filter.after[1]})`] : [])
          ])
        }
          ORDER BY created_at, id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),

      // Batches
      insertBatch: (row: Omit<BatchRow, "issued" | "failed" | "finishedAt">) =>
        sql`INSERT INTO certificate_batches ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie),
      findBatch: (communityId: string, id: string) =>
        sql<BatchRow>`SELECT * FROM certificate_batches WHERE community_id = ${communityId} AND id = ${id}`.pipe(
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
          : sql<{ id: string }>`INSERT INTO certificates ${sql.insert(rows as Array<NewCertificate>)}
            ON CONFLICT (community_id, template_id, profile_id) WHERE status NOT IN ('revoked', 'superseded')
            DO NOTHING RETURNING id`.pipe(Effect.map((r) => r.map((row) => row.id)), Effect.orDie),
      find: (communityId: string, id: string) =>
        sql<CertificateView>`${certificateSelect} WHERE c.community_id = ${communityId} AND c.id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      findById: (id: string) =>
        sql<CertificateView>`${certificateSelect} WHERE c.id = ${id}`.pipe(Effect.map(first), Effect.orDie),
      findByCode: (code: string) =>
        sql<CertificateView>`${certificateSelect} WHERE c.code = ${code}`.pipe(Effect.map(first), Effect.orDie),
      lock: (communityId: string, id: string) =>
        sql<CertificateRow>`SELECT * FROM certificates WHERE community_id = ${communityId} AND id = ${id}
          FOR UPDATE`.pipe(Effect.map(first), Effect.orDie),
      list: (communityId: string, filter: CertificateFilter) =>
        sql<CertificateView>`${certificateSelect}
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
          ORDER BY c.created_at, c.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      listOfAccount: (accountId: string, filter: { after?: readonly [string, string] | undefined; limit: number }) =>
        sql<CertificateView>`${certificateSelect}
          WHERE c.account_id = ${accountId} AND c.status IN ('issued', 'revoked', 'superseded')
          ${filter.after ? sql`AND (c.created_at, c.id) > (${new Date(filter.after[0])}, ${filter.after[1]})` : sql``}
          ORDER BY c.created_at, c.id LIMIT ${filter.limit + 1}`.pipe(Effect.orDie),
      update: (
        communityId: string,
        id: string,
        changes: Partial<Omit<CertificateRow, "id" | "communityId">>,
        now: Date
      ) =>
        sql`UPDATE certificates SET ${sql.update({ ...changes, updatedAt: now })}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (communityId: string, id: string) =>
        sql`DELETE FROM certificates WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /**
       * Claims the next certificate of a batch (or one certificate) to generate: `pending`, or
       * `generating` with an expired lease (its worker died). Counts the attempt.
       */
      claim: (work: { batchId: string | null; certificateId: string | null }, now: Date, leaseUntil: Date) =>
        sql<CertificateRow>`UPDATE certificates SET status = 'generating', attempts = attempts + 1,
            locked_until = ${leaseUntil}, updated_at = ${now}
          WHERE id = (
            SELECT id FROM certificates
            WHERE ${work.batchId !== null ? sql`batch_id = ${work.batchId}` : sql`id = ${work.certificateId}`}
              AND (status = 'pending' OR (status = 'generating' AND locked_until < ${now}))
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING *`.pipe(Effect.map(first), Effect.orDie),
      /** When the earliest lease of the work's certificates still being generated ends (none: null). */
      leaseEnd: (work: { batchId: string | null; certificateId: string | null }) =>
        sql<{ until: Date | null }>`SELECT min(locked_until) AS until FROM certificates
          WHERE ${work.batchId !== null ? sql`batch_id = ${work.batchId}` : sql`id = ${work.certificateId}`}
            AND status = 'generating'`.pipe(Effect.map((rows) => rows[0]?.until ?? null), Effect.orDie),
      /** `generating -> issued` for the worker that holds this attempt; false when it lost the row. */
      markIssued: (row: CertificateRow, pdfKey: string, now: Date) =>
        sql<{ id: string }>`UPDATE certificates SET status = 'issued', pdf_key = ${pdfKey}, issued_at = ${now},
            locked_until = NULL, last_error = NULL, updated_at = ${now}
          WHERE id = ${row.id} AND status = 'generating' AND attempts = ${row.attempts} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** `generating -> pending` (attempts left) or `-> failed`; false when the worker lost the row. */
      markError: (row: CertificateRow, status: "pending" | "failed", error: string, now: Date) =>
        sql<{ id: string }>`UPDATE certificates SET status = ${status}, locked_until = NULL,
            last_error = ${error}, updated_at = ${now}
          WHERE id = ${row.id} AND status = 'generating' AND attempts = ${row.attempts} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      // Issuer keys
      issuerKey: (communityId: string) =>
        sql<{ kid: string; publicJwk: unknown; privateJwk: unknown }>`SELECT kid, public_jwk, private_jwk
          FROM certificate_issuer_keys WHERE community_id = ${communityId}`.pipe(Effect.map(first), Effect.orDie),
      insertIssuerKey: (communityId: string, kid: string, publicJwk: unknown, privateJwk: unknown, now: Date) =>
        sql`INSERT INTO certificate_issuer_keys (community_id, kid, public_jwk, private_jwk, created_at)
          VALUES (${communityId}, ${kid}, ${JSON.stringify(publicJwk)}::jsonb, ${
          JSON.stringify(privateJwk)
        }::jsonb, ${now})
          ON CONFLICT (community_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      publicKeys: sql<{ kid: string; publicJwk: Record<string, unknown> }>`SELECT kid, public_jwk
        FROM certificate_issuer_keys ORDER BY created_at, kid`.pipe(Effect.orDie)
    }
  })
}) {}
