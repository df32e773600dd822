import { SqlClient } from "@effect/sql"
import { Effect, type Option } from "effect"
import type { ExportFile } from "../../privacy/PersonalData"
import { afterKey, EXPORT_PAGE, idKey, isoOf, keysetRowsOfEach } from "../../sql/keysetExport"

/**
 * Checkout's file of a members' data export (issue 56): every order the subject placed (paid or not),
 * its purchase and refunds; money as strings of minor units with the currency. The seller's fee and
 * net, the gateway's references and payment codes are not the buyer's and are left out. Pages by
 * `charges_buyer_idx` (migration 0056).
 */
export const checkoutExportFiles = Effect.map(SqlClient.SqlClient, (sql): ReadonlyArray<ExportFile> => [
  {
    name: "purchases.json",
    describes: "Your orders and purchases: product, payment method, amounts (in minor units, e.g. cents, " +
      "with the currency), status, when paid, and refunds.",
    records: (subject) =>
      keysetRowsOfEach(
        subject.profiles,
        (profile, after: Option.Option<string>) =>
          sql`SELECT c.id, c.community_id, pu.id AS purchase_id, c.product_id, ps.title AS product_title,
            c.add_on_product_ids, c.subscription_group_id AS plan_id, c.status, c.payment_method, c.installments,
            c.currency, c.list_amount::text AS list_amount, c.discount::text AS discount, c.amount::text AS amount,
            c.interest::text AS interest, c.total::text AS total, c.refunded_amount::text AS refunded_amount,
            c.failure_reason, ${isoOf(sql, "c.created_at")} AS created_at, ${isoOf(sql, "c.paid_at")} AS paid_at,
            ${isoOf(sql, "c.expires_at")} AS expires_at,
            (SELECT coalesce(json_agg(json_build_object(
                'id', r.id, 'amount', r.amount::text, 'currency', r.currency, 'status', r.status,
                'fullRefund', r.full_refund, 'createdAt', ${isoOf(sql, "r.created_at")}
              ) ORDER BY r.id), '[]'::json)
              FROM refunds r WHERE r.community_id = c.community_id AND r.charge_id = c.id
            ) AS refunds
          FROM charges c
          LEFT JOIN purchases pu ON pu.charge_id = c.id
          LEFT JOIN product_summaries ps ON ps.community_id = c.community_id AND ps.id = c.product_id
          WHERE c.community_id = ${profile.communityId} AND c.profile_id = ${profile.profileId}
            ${afterKey(sql, "c.id", after)}
          ORDER BY c.id LIMIT ${EXPORT_PAGE}`,
        idKey
      )
  }
])
