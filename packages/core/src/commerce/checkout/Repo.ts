import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AccountId, CommunityId, ProfileId } from "../../domain/Ids"
import { PaymentMethod } from "../../domain/Money"
import type { SaleAmounts } from "../../money/ledger/Pricing"
import { storedObject } from "../../sql/storedJson"

const ChargeRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  profileId: ProfileId,
  productId: Schema.String,
  subscriptionGroupId: Schema.NullOr(Schema.String),
  addOnProductIds: Schema.Array(Schema.String),
  paymentMethod: PaymentMethod,
  installments: Schema.Number,
  currency: Schema.String,
  listAmount: Schema.Number,
  discount: Schema.Number,
  amount: Schema.Number,
  interest: Schema.Number,
  total: Schema.Number,
  fee: Schema.Number,
  net: Schema.Number,
  amounts: storedObject<SaleAmounts>(),
  couponId: Schema.NullOr(Schema.String),
  stockReserved: Schema.Boolean,
  status: Schema.Literal("pending", "paid", "expired", "failed"),
  gateway: Schema.String,
  gatewayChargeId: Schema.NullOr(Schema.String),
  paymentCode: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  /** When the gateway's answer was recorded; null while a crash may have left it unknown. */
  submittedAt: Schema.NullOr(Schema.DateFromSelf),
  nextAction: Schema.Unknown,
  /** `next_action` as stored, keys untouched (`charge` reads it; `nextAction` has its keys camel-cased). */
  nextActionText: Schema.optional(Schema.NullOr(Schema.String)),
  failureReason: Schema.NullOr(Schema.String),
  /** The seller's own account the gateway settles the charge into (Connect destination), as the gateway answered. */
  settledTo: Schema.NullOr(Schema.String)
})
export type ChargeRow = typeof ChargeRow.Type

const PendingRow = Schema.Struct({ id: Schema.String, communityId: CommunityId })
const IdRow = Schema.Struct({ id: Schema.String })
const PurchaseRow = Schema.Struct({
  id: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  chargeId: Schema.String,
  paymentMethod: Schema.String,
  installments: Schema.Number,
  currency: Schema.String,
  amount: Schema.Number,
  total: Schema.Number,
  discount: Schema.Number,
  createdAt: Schema.DateFromSelf
})
const KeyRow = Schema.Struct({ requestHash: Schema.String, response: Schema.Unknown })
const EventRow = Schema.Struct({ eventId: Schema.String })
const AccountRow = Schema.Struct({ accountId: AccountId })
const BuyerRow = Schema.Struct({ email: Schema.String, fullName: Schema.String })

/** The gateway's answer to a charge, as stored (`recordSubmission`). */
export interface Submission {
  readonly gatewayChargeId: string
  readonly paymentCode: string | null
  readonly expiresAt: Date | null
  readonly nextAction: unknown
  readonly settledTo?: string | undefined
}

export type NewCharge =
  & Omit<
    ChargeRow,
    | "paidAt"
    | "createdAt"
    | "amounts"
    | "addOnProductIds"
    | "submittedAt"
    | "nextAction"
    | "nextActionText"
    | "failureReason"
    | "settledTo"
  >
  & {
    readonly amounts: string
    readonly addOnProductIds: string
  }

export class CheckoutRepo extends Effect.Service<CheckoutRepo>()("@roda/core/CheckoutRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])
    const decodeCharges = Schema.decodeUnknown(Schema.Array(ChargeRow))
    const decodePending = Schema.decodeUnknown(Schema.Array(PendingRow))
    const decodeIds = Schema.decodeUnknown(Schema.Array(IdRow))
    const decodePurchases = Schema.decodeUnknown(Schema.Array(PurchaseRow))
    const decodeKeys = Schema.decodeUnknown(Schema.Array(KeyRow))
    const decodeEvents = Schema.decodeUnknown(Schema.Array(EventRow))
    const decodeAccounts = Schema.decodeUnknown(Schema.Array(AccountRow))
    const decodeBuyers = Schema.decodeUnknown(Schema.Array(BuyerRow))

    const insertCharge = (row: NewCharge) =>
      sql`INSERT INTO charges ${sql.insert({ ...row })}`.pipe(Effect.asVoid, Effect.orDie)

    const charge = (communityId: CommunityId, id: string, lock = false) =>
      // the gateway's action object is kept as the gateway wrote it (the client SDK reads its keys): as text
      sql`SELECT *, next_action::text AS next_action_text FROM charges
        WHERE community_id = ${communityId} AND id = ${id}
        ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(decodeCharges), Effect.map(first), Effect.orDie)

    /** A charge of a gateway event, locked: by our id when the event carries it, else by the gateway's. */
    const chargeAtGateway = (gateway: string, gatewayChargeId: string, chargeId?: string | undefined) =>
      (chargeId !== undefined && /^[0-9a-f-]{36}$/i.test(chargeId)
        ? sql`SELECT * FROM charges WHERE gateway = ${gateway} AND id = ${chargeId.toLowerCase()} FOR UPDATE`
        : sql`SELECT * FROM charges WHERE gateway = ${gateway} AND gateway_charge_id = ${gatewayChargeId}
        FOR UPDATE`).pipe(Effect.flatMap(decodeCharges), Effect.map(first), Effect.orDie)

    /** Records the gateway's answer to a charge (once: a charge keeps the first answer recorded). */
    const recordSubmission = (id: string, submission: Submission, at: Date) =>
      sql`UPDATE charges SET gateway_charge_id = ${submission.gatewayChargeId}, payment_code = ${submission.paymentCode},
          expires_at = ${submission.expiresAt},
          next_action = ${submission.nextAction === null ? null : JSON.stringify(submission.nextAction)}::jsonb,
          settled_to = ${submission.settledTo ?? null}, submitted_at = ${at}, updated_at = now()
        WHERE id = ${id} AND submitted_at IS NULL`.pipe(Effect.asVoid, Effect.orDie)

    const markFailed = (id: string, reason: string, at: Date) =>
      sql`UPDATE charges SET status = 'failed', failure_reason = ${reason}, submitted_at = coalesce(submitted_at, ${at}),
          next_action = NULL, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    /** Pending charges whose gateway answer was never recorded (a crash), created before `before`. */
    const unsubmitted = (before: Date, limit: number) =>
      sql`SELECT id, community_id FROM charges
        WHERE status = 'pending' AND submitted_at IS NULL AND created_at <= ${before}
        ORDER BY created_at LIMIT ${limit}`.pipe(Effect.flatMap(decodePending), Effect.orDie)

    const setStatus = (id: string, status: ChargeRow["status"], paidAt: Date | null) =>
      sql`UPDATE charges SET status = ${status}, paid_at = ${paidAt}, next_action = NULL, updated_at = now()
        WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Pending charges whose time ran out (read without a lock: the gateway is asked before each is locked). */
    const expiredPending = (now: Date, limit: number) =>
      sql`SELECT * FROM charges WHERE status = 'pending' AND expires_at <= ${now}
        ORDER BY expires_at LIMIT ${limit}`.pipe(Effect.flatMap(decodeCharges), Effect.orDie)

    const purchaseOfCharge = (chargeId: string) =>
      sql`SELECT id FROM purchases WHERE charge_id = ${chargeId}`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map(first),
        Effect.orDie
      )

    const purchasesOf = (communityId: CommunityId, profileId: ProfileId, before: string | undefined, limit: number) =>
      sql`SELECT pu.id, pu.product_id, p.title, pu.charge_id, c.payment_method, c.installments, c.currency,
          c.amount, c.total, c.discount, pu.created_at
        FROM purchases pu
        JOIN charges c ON c.id = pu.charge_id
        JOIN product_summaries p ON p.id = pu.product_id
        WHERE pu.community_id = ${communityId} AND pu.profile_id = ${profileId}
          ${before === undefined ? sql`` : sql`AND pu.id < ${before}`}
        ORDER BY pu.id DESC LIMIT ${limit + 1}`.pipe(Effect.flatMap(decodePurchases), Effect.orDie)

    /**
     * Claims an idempotency key of one caller (`scope`; waits for a concurrent holder); the row,
     * locked, with any stored answer.
     */
    const claimKey = (communityId: CommunityId, scope: string, key: string, fingerprint: string) =>
      Effect.gen(function*() {
        const inserted = yield* sql`INSERT INTO idempotency_keys (community_id, scope, key, request_hash)
          VALUES (${communityId}, ${scope}, ${key}, ${fingerprint}) ON CONFLICT DO NOTHING RETURNING key`
        const rows = yield* sql`
          SELECT request_hash, response FROM idempotency_keys
          WHERE community_id = ${communityId} AND scope = ${scope} AND key = ${key} FOR UPDATE`.pipe(
          Effect.flatMap(decodeKeys)
        )
        return { ...rows[0]!, claimed: inserted.length === 1 }
      }).pipe(Effect.orDie)

    /** Lets a key go (its request was refused), so it may be used again. */
    const dropKey = (communityId: CommunityId, scope: string, key: string) =>
      sql`DELETE FROM idempotency_keys WHERE community_id = ${communityId} AND scope = ${scope} AND key = ${key}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const storeAnswer = (communityId: CommunityId, scope: string, key: string, response: unknown) =>
      sql`UPDATE idempotency_keys SET response = ${JSON.stringify(response)}::jsonb
        WHERE community_id = ${communityId} AND scope = ${scope} AND key = ${key}`.pipe(Effect.asVoid, Effect.orDie)

    /** Records a gateway event; false when it was already handled. */
    const recordEvent = (gateway: string, eventId: string) =>
      sql`INSERT INTO gateway_events (gateway, event_id) VALUES (${gateway}, ${eventId})
        ON CONFLICT DO NOTHING RETURNING event_id`.pipe(
        Effect.flatMap(decodeEvents),
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      )

    /** An event acknowledged without effect (not about a charge of Roda's). */
    const markEventIgnored = (gateway: string, eventId: string) =>
      sql`UPDATE gateway_events SET outcome = 'ignored' WHERE gateway = ${gateway} AND event_id = ${eventId}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** The account a profile belongs to (the buyer of a charge). */
    const accountOf = (profileId: ProfileId) =>
      sql`SELECT account_id FROM member_cards WHERE id = ${profileId}`.pipe(
        Effect.flatMap(decodeAccounts),
        Effect.map((rows) => Option.map(first(rows), (row) => row.accountId)),
        Effect.orDie
      )

    const buyerEmail = (profileId: ProfileId) =>
      sql`SELECT a.email, p.full_name FROM member_cards p
        JOIN account_contacts a ON a.id = p.account_id WHERE p.id = ${profileId}`.pipe(
        Effect.flatMap(decodeBuyers),
        Effect.map(first),
        Effect.orDie
      )

    return {
      insertCharge,
      charge,
      chargeAtGateway,
      recordSubmission,
      markFailed,
      unsubmitted,
      dropKey,
      setStatus,
      expiredPending,
      purchaseOfCharge,
      purchasesOf,
      claimKey,
      storeAnswer,
      recordEvent,
      markEventIgnored,
      accountOf,
      buyerEmail
    }
  })
}) {}
