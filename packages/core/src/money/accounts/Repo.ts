import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"
import type { PostalAddress } from "../../domain/PostalAddress"
import { storedObject } from "../../sql/storedJson"
import { reviewStatuses } from "./Policy"

const ReviewFields = {
  status: Schema.Literal(...reviewStatuses),
  rejectionReason: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.DateFromSelf),
  reviewedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}
export type Review = Schema.Struct.Type<typeof ReviewFields>

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

const BusinessRow = Schema.Struct({
  country: Schema.String,
  legalName: Schema.String,
  taxId: Schema.String,
  taxIdType: Schema.NullOr(Schema.String),
  address: Schema.NullOr(storedObject<PostalAddress>()),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  ...ReviewFields
})
export type BusinessRow = typeof BusinessRow.Type

const PayoutRow = Schema.Struct({
  method: Schema.Literal("PIX", "BANK_ACCOUNT"),
  pixKey: Schema.NullOr(Schema.String),
  pixKeyType: Schema.NullOr(Schema.String),
  bankAccount: Schema.NullOr(storedObject<BankAccount>()),
  ...ReviewFields
})
export type PayoutRow = typeof PayoutRow.Type

/** What a review step writes. */
export interface ReviewChange {
  readonly status: Review["status"]
  readonly rejectionReason: string | null
  readonly submittedAt: Date | null
  readonly reviewedAt: Date | null
}

/** One submission in the operators' queue. */
const ReviewQueueRow = Schema.Struct({
  subject: Schema.Literal("business", "payout"),
  communityId: CommunityId,
  communityName: Schema.String,
  submittedAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ReviewQueueRow = typeof ReviewQueueRow.Type

const CommunityIdRow = Schema.Struct({ communityId: CommunityId })
const FoundRow = Schema.Struct({ found: Schema.Boolean })
const EmailRow = Schema.Struct({ email: Schema.String })
const NameRow = Schema.Struct({ name: Schema.String })

export type ReviewedTable = "business_information" | "payout_settings"

export class SellingAccountsRepo extends Effect.Service<SellingAccountsRepo>()("@roda/core/SellingAccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const decodeBusiness = Schema.decodeUnknown(Schema.Array(BusinessRow))
    const decodePayout = Schema.decodeUnknown(Schema.Array(PayoutRow))
    const decodeQueue = Schema.decodeUnknown(Schema.Array(ReviewQueueRow))
    const decodeInserted = Schema.decodeUnknown(Schema.Array(CommunityIdRow))
    const decodeFound = Schema.decodeUnknown(Schema.Array(FoundRow))
    const decodeEmails = Schema.decodeUnknown(Schema.Array(EmailRow))
    const decodeNames = Schema.decodeUnknown(Schema.Array(NameRow))
    const one = <Row>(rows: ReadonlyArray<Row>) => Option.fromNullable(rows[0])

    /** The row of the community; `lock` takes it FOR UPDATE (inside a transaction). */
    const business = (communityId: CommunityId, lock = false) =>
      sql`SELECT * FROM business_information WHERE community_id = ${communityId}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(decodeBusiness), Effect.map(one), Effect.orDie)

    const payout = (communityId: CommunityId, lock = false) =>
      sql`SELECT * FROM payout_settings WHERE community_id = ${communityId}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(decodePayout), Effect.map(one), Effect.orDie)

    /** Inserts the community's first row; false when one exists already (a concurrent insert waits for its commit). */
    const insertFirst = (table: ReviewedTable, row: Record<string, unknown>) =>
      sql`INSERT INTO ${sql(table)} ${sql.insert(row)}
        ON CONFLICT (community_id) DO NOTHING RETURNING community_id`.pipe(
        Effect.flatMap(decodeInserted),
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const replace = (table: ReviewedTable, communityId: CommunityId, row: Record<string, unknown>) =>
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

    const insertBusiness = (communityId: CommunityId, fields: BusinessFields, review: ReviewChange) =>
      insertFirst("business_information", { communityId, ...businessRow(fields, review) })
    const updateBusiness = (communityId: CommunityId, fields: BusinessFields, review: ReviewChange) =>
      replace("business_information", communityId, businessRow(fields, review))
    const insertPayout = (communityId: CommunityId, fields: PayoutFields, review: ReviewChange) =>
      insertFirst("payout_settings", { communityId, ...payoutRow(fields, review) })
    const updatePayout = (communityId: CommunityId, fields: PayoutFields, review: ReviewChange) =>
      replace("payout_settings", communityId, payoutRow(fields, review))

    const setReview = (table: ReviewedTable, communityId: CommunityId, review: ReviewChange) =>
      replace(table, communityId, { ...review })

    const communityExists = (communityId: CommunityId) =>
      sql`SELECT EXISTS (
          SELECT 1 FROM community_summaries WHERE id = ${communityId} AND deleted_at IS NULL
        ) AS found`.pipe(Effect.flatMap(decodeFound), Effect.map((rows) => rows[0]?.found === true), Effect.orDie)

    /** E-mail addresses of the community's owners (who hear about reviews). */
    const ownerEmails = (communityId: CommunityId) =>
      sql`SELECT a.email FROM member_cards p JOIN account_contacts a ON a.id = p.account_id
        WHERE p.community_id = ${communityId} AND p.role = 'owner' AND p.removed_at IS NULL
          AND p.status = 'active'`.pipe(
        Effect.flatMap(decodeEmails),
        Effect.map((rows) => rows.map((row) => row.email)),
        Effect.orDie
      )

    const communityName = (communityId: CommunityId) =>
      sql`SELECT name FROM community_summaries WHERE id = ${communityId}`.pipe(
        Effect.flatMap(decodeNames),
        Effect.map((rows) => rows[0]?.name ?? ""),
        Effect.orDie
      )

    /**
     * Submissions waiting for an operator (`UNDER_REVIEW`: PENDING and submitted), oldest first, across
     * communities: business information and payout settings.
     */
    const underReview = (limit: number) =>
      sql`SELECT * FROM (
          SELECT 'business' AS subject, r.community_id, c.name AS community_name, r.submitted_at, r.updated_at
            FROM business_information r JOIN community_summaries c ON c.id = r.community_id
            WHERE r.status = 'PENDING' AND r.submitted_at IS NOT NULL AND c.deleted_at IS NULL
          UNION ALL
          SELECT 'payout' AS subject, r.community_id, c.name AS community_name, r.submitted_at, r.updated_at
            FROM payout_settings r JOIN community_summaries c ON c.id = r.community_id
            WHERE r.status = 'PENDING' AND r.submitted_at IS NOT NULL AND c.deleted_at IS NULL
        ) q ORDER BY submitted_at, community_id, subject LIMIT ${limit}`.pipe(Effect.flatMap(decodeQueue), Effect.orDie)

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
