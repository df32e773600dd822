import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../../privacy/PersonalData"
import { afterKey, idKey, isoOf, keysetRowsOfEach } from "../../sql/keysetExport"

/** Subscriptions per statement: each carries its billings (one a period). */
const SUBSCRIPTIONS_PAGE = 100

/**
 * Subscriptions' file of a members' data export (issue 56): the subject's subscriptions with their
 * billings; money as strings of minor units with the currency. The saved card's token is never
 * exported. Pages by `subscriptions_member_idx`.
 */
export const subscriptionsExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "subscriptions.json",
    describes: "Your subscriptions: plan, product, price (in minor units with the currency), status, periods, " +
      "pauses and cancellation, and each billing.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT s.id, s.community_id, s.subscription_group_id AS plan_id, s.product_id,
            ps.title AS product_title, s.add_on_product_ids, s.kind, s.status, s.price::text AS price, s.currency,
            s.payment_method, s.cancel_at_period_end, ${isoOf(sql, "s.current_period_start")} AS current_period_start,
            ${isoOf(sql, "s.current_period_end")} AS current_period_end, ${isoOf(sql, "s.starts_at")} AS starts_at,
            ${isoOf(sql, "s.paused_until")} AS paused_until, ${isoOf(sql, "s.past_due_since")} AS past_due_since,
            ${isoOf(sql, "s.canceled_at")} AS canceled_at, ${isoOf(sql, "s.created_at")} AS created_at,
            (SELECT coalesce(json_agg(json_build_object(
                'id', b.id, 'reason', b.reason, 'periodStart', ${isoOf(sql, "b.period_start")},
                'periodEnd', ${isoOf(sql, "b.period_end")}, 'listAmount', b.list_amount::text,
                'discount', b.discount::text, 'amount', b.amount::text, 'currency', b.currency,
                'paymentMethod', b.payment_method, 'status', b.status, 'refundedAmount', b.refunded_amount::text,
                'paidAt', ${isoOf(sql, "b.paid_at")}, 'createdAt', ${isoOf(sql, "b.created_at")}
              ) ORDER BY b.id), '[]'::json)
              FROM subscription_billings b WHERE b.community_id = s.community_id AND b.subscription_id = s.id
            ) AS billings
          FROM subscriptions s
          LEFT JOIN product_summaries ps ON ps.community_id = s.community_id AND ps.id = s.product_id
          WHERE s.community_id = ${profile.communityId} AND s.profile_id = ${profile.profileId}
            ${afterKey(sql, "s.id", after)}
          ORDER BY s.id LIMIT ${SUBSCRIPTIONS_PAGE}`,
        idKey,
        SUBSCRIPTIONS_PAGE
      )
  }
])
