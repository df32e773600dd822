import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { csvPageSql } from "../../domain/Csv"
import type { CommunityId, ProfileId } from "../../domain/Ids"
import type { PaymentMethod } from "../../domain/Money"
import type { SubscriptionStatus } from "./Policy"
import {
  type AddOnRow,
  type BillingRow,
  decode,
  type KeyRow,
  type ListFilters,
  type RefundRow,
  type SubscriptionChanges,
  type SubscriptionRow,
  type ViewedRow
} from "./rows"
import { csvRows } from "./subscriptionsCsv"

export type {
  AddOnRow,
  BillingRow,
  KeyRow,
  ListFilters,
  PlanProduct,
  RefundRow,
  ShownAddOn,
  SubscriptionChanges,
  SubscriptionRow,
  TeamRow,
  ViewedRow
} from "./rows"

/** SQL of subscriptions (commerce): subscriptions, their add-ons, billings and payment links. */
export class SubscriptionsRepo extends Effect.Service<SubscriptionsRepo>()("@roda/core/SubscriptionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

    const columns = sql`s.*, p.billing_interval, p.title AS product_title`

    /**
     * The subscriptions matching `where`, with their option's title and interval; locked, the rows are
     * locked first and joined after. A lock taken in the join itself (`FOR UPDATE OF s`) would recheck
     * a row updated meanwhile against the option row read before the wait, so a subscription whose
     * option had just changed would not be found at all.
     */
    const selectRows = (where: Statement.Fragment, lock: boolean) =>
      (lock
        ? sql`WITH s AS (SELECT * FROM subscriptions s WHERE ${where} FOR UPDATE)
            SELECT ${columns} FROM s JOIN product_summaries p ON p.id = s.product_id`
        : sql`SELECT ${columns} FROM subscriptions s
            JOIN product_summaries p ON p.id = s.product_id WHERE ${where}`).pipe(Effect.flatMap(decode.subscriptions))

    const find = (communityId: CommunityId, id: string, options: { lock?: boolean; profileId?: ProfileId } = {}) =>
      selectRows(
        sql`s.community_id = ${communityId} AND s.id = ${id}
          ${options.profileId === undefined ? sql`` : sql`AND s.profile_id = ${options.profileId}`}`,
        options.lock === true
      ).pipe(Effect.map(first), Effect.orDie)

    const filterSql = (filters: ListFilters) =>
      sql.and([
        filters.profileId === undefined ? sql`true` : sql`s.profile_id = ${filters.profileId}`,
        filters.status === undefined ? sql`true` : sql`s.status = ${filters.status}`,
        filters.subscriptionGroupId === undefined
          ? sql`true`
          : sql`s.subscription_group_id = ${filters.subscriptionGroupId}`
      ])

    const list = (communityId: CommunityId, filters: ListFilters, before: string | undefined, limit: number) =>
      sql`SELECT ${columns}, pr.full_name, a.email FROM subscriptions s
        JOIN product_summaries p ON p.id = s.product_id
        JOIN member_cards pr ON pr.id = s.profile_id
        JOIN account_contacts a ON a.id = pr.account_id
        WHERE s.community_id = ${communityId} AND ${filterSql(filters)}
          ${before === undefined ? sql`` : sql`AND s.id < ${before}`}
        ORDER BY s.id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decode.team), Effect.orDie)

    /** A page of the CSV export (thousands of lines), written by PostgreSQL (`subscriptionsCsv.ts`). */
    const exportPage = (communityId: CommunityId, filters: ListFilters, before: string | undefined, limit: number) =>
      csvPageSql(
        sql,
        csvRows(
          sql,
          sql`s.community_id = ${communityId} AND ${filterSql(filters)}
            ${before === undefined ? sql`` : sql`AND s.id < ${before}`}`,
          limit
        )
      ).pipe(Effect.flatMap(decode.csvPage), Effect.map((rows) => rows[0]!), Effect.orDie)

    const insert = (row: {
      readonly id: string
      readonly communityId: CommunityId
      readonly profileId: ProfileId
      readonly subscriptionGroupId: string
      readonly productId: string
      readonly status: SubscriptionStatus
      readonly kind: SubscriptionRow["kind"]
      readonly price: number
      readonly currency: string
      readonly paymentMethod: PaymentMethod | null
      readonly cardToken: string | null
      readonly currentPeriodStart: Date | null
      readonly currentPeriodEnd: Date | null
      readonly billingAnchor: Date | null
      readonly periodIndex: number
      readonly firstChargeId: string | null
      readonly startsAt: Date | null
      readonly createdAt: Date
      readonly updatedAt: Date
    }) => sql`INSERT INTO subscriptions ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * The subscription that the statement `changed` (a CTE `s` of the written row) leaves, as the team
     * sees it: option, member and add-ons read by that same statement, for its webhook event.
     */
    const viewed = (changed: Statement.Fragment) =>
      sql`WITH s AS (${changed})
        SELECT ${columns}, COALESCE(pr.full_name, '') AS full_name, COALESCE(a.email, '') AS email,
          COALESCE((SELECT json_agg(json_build_object('id', ao.id, 'subscriptionId', ao.subscription_id,
              'productId', ao.product_id, 'title', ap.title, 'price', ao.price) ORDER BY ao.created_at, ao.id)
            FROM subscription_add_ons ao JOIN product_summaries ap ON ap.id = ao.product_id
            WHERE ao.subscription_id = s.id AND ao.removed_at IS NULL), '[]') AS add_ons
        FROM s JOIN product_summaries p ON p.id = s.product_id
        LEFT JOIN member_cards pr ON pr.id = s.profile_id
        LEFT JOIN account_contacts a ON a.id = pr.account_id`.pipe(
        Effect.flatMap(decode.viewed),
        Effect.map((rows) => rows[0]!),
        Effect.orDie
      )

    /** `insert`, answering the new subscription as the team sees it (one statement). */
    const insertViewed = (row: Parameters<typeof insert>[0]): Effect.Effect<ViewedRow> =>
      viewed(sql`INSERT INTO subscriptions ${sql.insert(row)} RETURNING *`)

    /** `update`, answering the subscription as the team sees it after the change (one statement). */
    const updateViewed = (id: string, changes: SubscriptionChanges, at: Date): Effect.Effect<ViewedRow> =>
      viewed(sql`UPDATE subscriptions SET ${sql.update({ ...changes, updatedAt: at })} WHERE id = ${id} RETURNING *`)

    const update = (id: string, changes: SubscriptionChanges, at: Date) =>
      sql`UPDATE subscriptions SET ${sql.update({ ...changes, updatedAt: at })} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const byCharge = (chargeId: string, lock = false) =>
      selectRows(sql`s.first_charge_id = ${chargeId}`, lock).pipe(
        Effect.map(first),
        Effect.orDie
      )

    const addOns = (communityId: CommunityId, subscriptionIds: ReadonlyArray<string>) =>
      subscriptionIds.length === 0
        ? Effect.succeed([] as ReadonlyArray<AddOnRow>)
        : sql`SELECT a.id, a.subscription_id, a.product_id, p.title, a.price, a.created_at
            FROM subscription_add_ons a JOIN product_summaries p ON p.id = a.product_id
            WHERE a.community_id = ${communityId} AND a.subscription_id IN ${sql.in(subscriptionIds)}
              AND a.removed_at IS NULL
            ORDER BY a.created_at, a.id`.pipe(Effect.flatMap(decode.addOns), Effect.orDie)

    const insertAddOn = (row: {
      readonly id: string
      readonly communityId: CommunityId
      readonly subscriptionId: string
      readonly productId: string
      readonly price: number
      readonly createdAt: Date
    }) =>
      sql`INSERT INTO subscription_add_ons ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      )

    const removeAddOn = (communityId: CommunityId, subscriptionId: string, addOnId: string, at: Date) =>
      sql`UPDATE subscription_add_ons SET removed_at = ${at}
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId} AND id = ${addOnId}
          AND removed_at IS NULL
        RETURNING product_id`.pipe(Effect.flatMap(decode.productIds), Effect.map(first), Effect.orDie)

    /** A product of the community with its role in a plan (`option` or `add_on`), not deleted. */
    const planProduct = (communityId: CommunityId, groupId: string, productId: string) =>
      sql`SELECT p.id, p.title, p.price, p.currency, p.billing_interval, p.status, g.kind,
          g.group_id
        FROM product_summaries p
        JOIN plan_products g ON g.product_id = p.id AND g.community_id = p.community_id
        WHERE p.community_id = ${communityId} AND g.group_id = ${groupId} AND p.id = ${productId}
          AND p.deleted_at IS NULL`.pipe(Effect.flatMap(decode.planProducts), Effect.map(first), Effect.orDie)

    /** The plans that offer the product as a billing option. */
    const optionOf = (communityId: CommunityId, productId: string) =>
      sql`SELECT p.id, p.title, p.price, p.currency, p.billing_interval, p.status, g.kind,
          g.group_id
        FROM product_summaries p
        JOIN plan_products g ON g.product_id = p.id AND g.community_id = p.community_id
        WHERE p.community_id = ${communityId} AND p.id = ${productId} AND g.kind = 'option'
          AND p.deleted_at IS NULL
        ORDER BY g.group_id LIMIT 1`.pipe(Effect.flatMap(decode.planProducts), Effect.map(first), Effect.orDie)

    const product = (productId: string) =>
      sql`SELECT id, price, currency, billing_interval FROM product_summaries WHERE id = ${productId}`.pipe(
        Effect.flatMap(decode.products),
        Effect.map(first),
        Effect.orDie
      )

    /** A billing row, new or the one already made for `key` (a period is billed once). */
    const billingFor = (
      row: Omit<BillingRow, "attempts" | "failureReason" | "refundedAmount" | "paidAt" | "gatewayChargeId"> & {
        readonly updatedAt: Date
      }
    ) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO subscription_billings ${sql.insert(row)} ON CONFLICT (community_id, key) DO NOTHING`
        const rows = yield* sql`SELECT * FROM subscription_billings
          WHERE community_id = ${row.communityId} AND key = ${row.key} FOR UPDATE`.pipe(Effect.flatMap(decode.billings))
        return rows[0]!
      }).pipe(Effect.orDie)

    const updateBilling = (id: string, changes: Partial<Omit<BillingRow, "id" | "communityId">>, at: Date) =>
      sql`UPDATE subscription_billings SET ${sql.update({ ...changes, updatedAt: at })} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const billings = (communityId: CommunityId, subscriptionId: string, before: string | undefined, limit: number) =>
      sql`SELECT * FROM subscription_billings
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId}
          ${before === undefined ? sql`` : sql`AND id < ${before}`}
        ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decode.billings), Effect.orDie)

    /** The newest billing not paid yet (what pay-now and retries settle; `charging`: at the gateway now). */
    const openBilling = (communityId: CommunityId, subscriptionId: string) =>
      sql`SELECT * FROM subscription_billings
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId}
          AND status IN ('pending', 'charging', 'failed') AND reason IN ('initial', 'renewal', 'resume')
        ORDER BY id DESC LIMIT 1 FOR UPDATE`.pipe(Effect.flatMap(decode.billings), Effect.map(first), Effect.orDie)

    /** Whether a billing of the subscription is at the gateway now (`charging`). */
    const chargingNow = (communityId: CommunityId, subscriptionId: string) =>
      sql`SELECT id FROM subscription_billings
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId} AND status = 'charging'
        LIMIT 1`.pipe(Effect.flatMap(decode.ids), Effect.map((rows) => rows.length > 0), Effect.orDie)

    /** The newest paid billing of a period (what a refund gives back). */
    const lastPaidPeriodBilling = (communityId: CommunityId, subscriptionId: string) =>
      sql`SELECT * FROM subscription_billings
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId}
          AND status = 'paid' AND amount > 0 AND period_start IS NOT NULL
        ORDER BY paid_at DESC, id DESC LIMIT 1 FOR UPDATE`.pipe(
        Effect.flatMap(decode.billings),
        Effect.map(first),
        Effect.orDie
      )

    /** A billing, locked. */
    const lockBilling = (communityId: CommunityId, billingId: string) =>
      sql`SELECT * FROM subscription_billings
        WHERE community_id = ${communityId} AND id = ${billingId} FOR UPDATE`.pipe(
        Effect.flatMap(decode.billings),
        Effect.map(first),
        Effect.orDie
      )

    /**
     * The billing a gateway event names: by our id (the gateway's metadata), else by the gateway's
     * id. Not locked: the caller locks the subscription, then the billing (the order every writer uses).
     */
    const billingAtGateway = (gatewayChargeId: string, billingId?: string | undefined) =>
      (billingId !== undefined && /^[0-9a-f-]{36}$/i.test(billingId)
        ? sql`SELECT * FROM subscription_billings WHERE id = ${billingId.toLowerCase()}`
        : sql`SELECT * FROM subscription_billings WHERE gateway_charge_id = ${gatewayChargeId}`).pipe(
          Effect.flatMap(decode.billings),
          Effect.map(first),
          Effect.orDie
        )

    const insertRefund = (row: Omit<RefundRow, "gatewayRefundId" | "failureReason">) =>
      sql`INSERT INTO subscription_refunds ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    const lockRefund = (communityId: CommunityId, refundId: string) =>
      sql`SELECT * FROM subscription_refunds WHERE community_id = ${communityId} AND id = ${refundId}
        FOR UPDATE`.pipe(Effect.flatMap(decode.refunds), Effect.map(first), Effect.orDie)

    const finishRefund = (
      id: string,
      changes: Pick<RefundRow, "status" | "gatewayRefundId" | "failureReason">,
      at: Date
    ) =>
      sql`UPDATE subscription_refunds SET ${sql.update({ ...changes, updatedAt: at })} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /**
     * Claims an `Idempotency-Key` (none): new, or answered at `expiredBefore` or earlier; else reads
     * the row another request made with it (a row still in flight is never taken over here).
     */
    const claimKey = (
      row: { communityId: CommunityId; caller: string; key: string; fingerprint: string; at: Date; expiredBefore: Date }
    ) =>
      Effect.gen(function*() {
        const claimed = yield* sql`INSERT INTO subscription_request_keys
            (community_id, caller, key, fingerprint, created_at)
          VALUES (${row.communityId}, ${row.caller}, ${row.key}, ${row.fingerprint}, ${row.at})
          ON CONFLICT (community_id, caller, key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, answer = NULL, created_at = EXCLUDED.created_at
            WHERE subscription_request_keys.answer IS NOT NULL
              AND subscription_request_keys.created_at <= ${row.expiredBefore}
          RETURNING key`
        if (claimed.length > 0) return Option.none<KeyRow>()
        const rows = yield* sql`SELECT fingerprint, answer, created_at FROM subscription_request_keys
          WHERE community_id = ${row.communityId} AND caller = ${row.caller} AND key = ${row.key}`.pipe(
          Effect.flatMap(decode.keys)
        )
        return first(rows)
      }).pipe(Effect.orDie)

    const storeKeyAnswer = (communityId: CommunityId, caller: string, key: string, answer: unknown) =>
      sql`UPDATE subscription_request_keys SET answer = ${JSON.stringify(answer)}::jsonb
        WHERE community_id = ${communityId} AND caller = ${caller} AND key = ${key}`.pipe(Effect.asVoid, Effect.orDie)

    /** Lets a key go: its request was refused (or expired), so the key may be used again. */
    const dropKey = (communityId: CommunityId, caller: string, key: string, olderThan?: Date) =>
      sql`DELETE FROM subscription_request_keys
        WHERE community_id = ${communityId} AND caller = ${caller} AND key = ${key}
          ${olderThan === undefined ? sql`` : sql`AND created_at <= ${olderThan}`}`.pipe(Effect.asVoid, Effect.orDie)

    /** Deletes up to 100 keys claimed at `before` or earlier (answered long ago, or left by a stopped process). */
    const sweepKeys = (before: Date) =>
      sql`DELETE FROM subscription_request_keys WHERE ctid IN (
          SELECT ctid FROM subscription_request_keys WHERE created_at <= ${before} LIMIT 100)`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const contact = (communityId: CommunityId, profileId: string) =>
      sql`SELECT pr.id, pr.full_name, a.email FROM member_cards pr JOIN account_contacts a ON a.id = pr.account_id
        WHERE pr.community_id = ${communityId} AND pr.id = ${profileId}`.pipe(
        Effect.flatMap(decode.contacts),
        Effect.map(first),
        Effect.orDie
      )

    const insertLink = (row: {
      readonly id: string
      readonly communityId: CommunityId
      readonly subscriptionId: string
      readonly tokenHash: string
      readonly expiresAt: Date
      readonly createdAt: Date
    }) => sql`INSERT INTO subscription_payment_links ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    const linkByHash = (communityId: CommunityId, subscriptionId: string, tokenHash: string) =>
      sql`SELECT id, expires_at, used_at FROM subscription_payment_links
        WHERE community_id = ${communityId} AND subscription_id = ${subscriptionId} AND token_hash = ${tokenHash}
        FOR UPDATE`.pipe(Effect.flatMap(decode.links), Effect.map(first), Effect.orDie)

    const useLink = (id: string, at: Date) =>
      sql`UPDATE subscription_payment_links SET used_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    return {
      find,
      list,
      exportPage,
      insert,
      insertViewed,
      update,
      updateViewed,
      byCharge,
      addOns,
      insertAddOn,
      removeAddOn,
      planProduct,
      optionOf,
      product,
      billingFor,
      updateBilling,
      billings,
      openBilling,
      chargingNow,
      lastPaidPeriodBilling,
      contact,
      lockBilling,
      billingAtGateway,
      insertRefund,
      lockRefund,
      finishRefund,
      claimKey,
      storeKeyAnswer,
      dropKey,
      sweepKeys,
      insertLink,
      linkByHash,
      useLink
    }
  })
}) {}
