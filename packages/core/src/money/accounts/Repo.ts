import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { ReviewStatus } from "./review"

export interface Review {
  readonly status: ReviewStatus
  readonly rejectionReason: string | null
  readonly submittedAt: Date | null
  readonly reviewedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface Address {
  readonly street: string
  readonly number: string
  readonly complement?: string | undefined
  readonly neighbourhood?: string | undefined
  readonly city: string
  readonly state: string
  readonly postalCode: string
  readonly country: string
}

export interface BusinessFields {
  readonly country: string
  readonly legalName: string
  readonly taxId: string
  readonly taxIdType: string | null
  readonly address: Address | null
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

    const saveBusiness = (communityId: string, fields: BusinessFields, review: ReviewChange) =>
      sql`INSERT INTO business_information ${
        sql.insert({
          communityId,
          ...fields,
          address: fields.address === null ? null : JSON.stringify(fields.address),
          ...review
        })
      }
        ON CONFLICT (community_id) DO UPDATE SET country = EXCLUDED.country, legal_name = EXCLUDED.legal_name,
          tax_id = EXCLUDED.tax_id, tax_id_type = EXCLUDED.tax_id_type, address = EXCLUDED.address,
          email = EXCLUDED.email, phone = EXCLUDED.phone, status = EXCLUDED.status,
          rejection_reason = EXCLUDED.rejection_reason, submitted_at = EXCLUDED.submitted_at,
          reviewed_at = EXCLUDED.reviewed_at, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie)

    const savePayout = (communityId: string, fields: PayoutFields, review: ReviewChange) =>
      sql`INSERT INTO payout_settings ${
        sql.insert({
          communityId,
          ...fields,
          bankAccount: fields.bankAccount === null ? null : JSON.stringify(fields.bankAccount),
          ...review
        })
      }
        ON CONFLICT (community_id) DO UPDATE SET method = EXCLUDED.method, pix_key = EXCLUDED.pix_key,
          pix_key_type = EXCLUDED.pix_key_type, bank_account = EXCLUDED.bank_account, status = EXCLUDED.status,
          rejection_reason = EXCLUDED.rejection_reason, submitted_at = EXCLUDED.submitted_at,
          reviewed_at = EXCLUDED.reviewed_at, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie)

    const setReview = (table: ReviewedTable, communityId: string, review: ReviewChange) =>
      sql`UPDATE ${sql(table)} SET ${sql.update({ ...review })}, updated_at = now()
        WHERE community_id = ${communityId}`.pipe(Effect.asVoid, Effect.orDie)

    const communityExists = (communityId: string) =>
      sql<{ readonly found: boolean }>`SELECT EXISTS (
          SELECT 1 FROM communities WHERE id = ${communityId} AND deleted_at IS NULL
        ) AS found`.pipe(Effect.map((rows) => rows[0]?.found === true), Effect.orDie)

    /** E-mail addresses of the community's owners (who hear about reviews). */
    const ownerEmails = (communityId: string) =>
      sql<{ readonly email: string }>`SELECT a.email FROM profiles p JOIN accounts a ON a.id = p.account_id
        WHERE p.community_id = ${communityId} AND p.role = 'owner' AND p.removed_at IS NULL`.pipe(
        Effect.map((rows) => rows.map((row) => row.email)),
        Effect.orDie
      )

    const communityName = (communityId: string) =>
      sql<{ readonly name: string }>`SELECT name FROM communities WHERE id = ${communityId}`.pipe(
        Effect.map((rows) => rows[0]?.name ?? ""),
        Effect.orDie
      )

    return { business, payout, saveBusiness, savePayout, setReview, communityExists, ownerEmails, communityName }
  })
}) {}
