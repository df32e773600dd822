import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { PostalAddress } from "../../domain/PostalAddress"
import type { ReviewStatus } from "./Policy"

export interface Review {
  readonly status: ReviewStatus
  readonly rejectionReason: string | null
  readonly submittedAt: Date | null
  readonly reviewedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface BusinessFields {
  readonly country: string
  readonly legalName: string
  readonly taxId: string
  readonly taxIdType: string | null
  readonly address: PostalAddress | null
  readonly email: string | null
  readonly phone: string | null
}

export interface BankAccount {
  readonly bankCode: string
  readonly branch: string
  readonly accountNumber: string
  readonly accountDigit?: string | undefined
  readonly accountType: "CHECKING" | "SAVINGS"
  readonly holderName: string
  readonly holderTaxId: string
}

export interface PayoutFields {
  readonly method: "PIX" | "BANK_ACCOUNT"
  readonly pixKey: string | null
  readonly pixKeyType: string | null
  readonly bankAccount: BankAccount | null
}

export type BusinessRow = BusinessFields & Review
export type PayoutRow = PayoutFields & Review

/** What a review step writes. */
export interface ReviewChange {
  readonly status: ReviewStatus
  readonly rejectionReason: string | null
  readonly submittedAt: Date | null
  readonly reviewedAt: Date | null
}

/** One submission in the operators' queue. */
export interface ReviewQueueRow {
  readonly subject: "business" | "payout"
  readonly communityId: string
  readonly communityName: string
  readonly submittedAt: Date
  readonly updatedAt: Date
}

export type ReviewedTable = "business_information" | "payout_settings"

export class SellingAccountsRepo extends Effect.Service<SellingAccountsRepo>()("@roda/core/SellingAccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const one = <Row>(rows: ReadonlyArray<Row>) => Option.fromNullable(rows[0])

    /** The row of the community; `lock` takes it FOR UPDATE (inside a transaction). */
    const business = (communityId: string, lock = false) =>
      sql<BusinessRow>`SELECT * FROM business_information WHERE community_id = ${communityId}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map(one), Effect.orDie)

    const payout = (communityId: string, lock = false) =>
      sql<PayoutRow>`SELECT * FROM payout_settings WHERE community_id = ${communityId}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map(one), Effect.orDie)

    /** Inserts the community's first row; false when one exists already (a concurrent insert waits for its commit). */
    const insertFirst = (table: ReviewedTable, row: Record<string, unknown>) =>
      sql<{ readonly communityId: string }>`INSERT INTO ${sql(table)} ${sql.insert(row)}
        ON CONFLICT (community_id) DO NOTHING RETURNING community_id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const replace = (table: ReviewedTable, communityId: string, row: Record<string, unknown>) =>
      sql`UPDATE ${sql(table)} SET ${sql.update(row)}, updated_at = now()
        WHERE community_id = ${communityId}`.pipe(Effect.asVoid, Effect.orDie)

    const businessRow = (fields: BusinessFields, review: ReviewChange) => ({
      ...fields,
      address: fields.address === null ? null : JSON.stringify(fields.address),
      ...review
    })
    const payoutRow = (fields: PayoutFields, review: ReviewChange) => ({
      ...fields,
      bankAccount: fields.bankAccount === null ? null : JSON.stringify(fields.bankAccount),
      ...review
    })

    const insertBusiness = (communityId: string, fields: BusinessFields, review: ReviewChange) =>
      insertFirst("business_information", { communityId, ...businessRow(fields, review) })
    const updateBusiness = (communityId: string, fields: BusinessFields, review: ReviewChange) =>
      replace("business_information", communityId, businessRow(fields, review))
    const insertPayout = (communityId: string, fields: PayoutFields, review: ReviewChange) =>
      insertFirst("payout_settings", { communityId, ...payoutRow(fields, review) })
    const updatePayout = (communityId: string, fields: PayoutFields, review: ReviewChange) =>
      replace("payout_settings", communityId, payoutRow(fields, review))

    const setReview = (table: ReviewedTable, communityId: string, review: ReviewChange) =>
      replace(table, communityId, { ...review })

    const communityExists = (communityId: string) =>
      sql<{ readonly found: boolean }>`SELECT EXISTS (
          SELECT 1 FROM community_summaries WHERE id = ${communityId} AND deleted_at IS NULL
        ) AS found`.pipe(Effect.map((rows) => rows[0]?.found === true), Effect.orDie)

    /** E-mail addresses of the community's owners (who hear about reviews). */
    const ownerEmails = (communityId: string) =>
      sql<{ readonly email: string }>`SELECT a.email FROM member_cards p JOIN account_contacts a ON a.id = p.account_id
        WHERE p.community_id = ${communityId} AND p.role = 'owner' AND p.removed_at IS NULL
          AND p.status = 'active'`.pipe(
        Effect.map((rows) => rows.map((row) => row.email)),
        Effect.orDie
      )

    const communityName = (communityId: string) =>
      sql<{ readonly name: string }>`SELECT name FROM community_summaries WHERE id = ${communityId}`.pipe(
        Effect.map((rows) => rows[0]?.name ?? ""),
        Effect.orDie
      )

    /**
     * Submissions waiting for an operator (`UNDER_REVIEW`: PENDING and submitted), oldest first, across
     * communities: business information and payout settings.
     */
    const underReview = (limit: number) =>
      sql<ReviewQueueRow>`SELECT * FROM (
          SELECT 'business' AS subject, r.community_id, c.name AS community_name, r.submitted_at, r.updated_at
            FROM business_information r JOIN community_summaries c ON c.id = r.community_id
            WHERE r.status = 'PENDING' AND r.submitted_at IS NOT NULL AND c.deleted_at IS NULL
          UNION ALL
          SELECT 'payout' AS subject, r.community_id, c.name AS community_name, r.submitted_at, r.updated_at
            FROM payout_settings r JOIN community_summaries c ON c.id = r.community_id
            WHERE r.status = 'PENDING' AND r.submitted_at IS NOT NULL AND c.deleted_at IS NULL
        ) q ORDER BY submitted_at, community_id, subject LIMIT ${limit}`.pipe(Effect.orDie)

    return {
      business,
      payout,
      underReview,
      insertBusiness,
      updateBusiness,
      insertPayout,
      updatePayout,
      setReview,
      communityExists,
      ownerEmails,
      communityName
    }
  })
}) {}
