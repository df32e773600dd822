// Orders and subscriptions of bench/scale/seed.mjs, and their ledger.
//
// Orders: ONE_TIME products; each order is a paid checkout as `commerce/checkout/Settlement.ts` leaves it:
// the charge (`paid`, sandbox), its purchase and the product's entitlement.
// Subscriptions: one plan (subscription group) per community with two MONTHLY options; each subscription
// is a paid card checkout started as `SubscribingLive.start` leaves it: `active`, first period from the
// payment (within the last 27 days, so no renewal is due yet), its `initial` billing (same id as the
// charge), the plan's and the product's entitlements until the period end, and the queued
// `subscriptions.period-end` job at that end.
// Ledger, for every paid charge, as `money/ledger/Journal.ts` posts it: a `sale` transaction
// (buyer_payments -total, platform_fees +fee, community_pending +net; no interest at one installment), a
// `ledger_releases` row, and for each release due before `t0` its `release` transaction (community_pending
// -net, community_available +net) posted when it fell due. Entries carry their account's running balance
// (`balance_after`, in `seq` order), `ledger_balances` holds the sums, and the deferred trigger
// `ledger_entries_balanced` checks that every transaction sums to zero.
// Fees are the platform defaults (money/ledger/salePricing.ts): card 4.99% + 0.49, PIX 1.99%, boleto
// 1.99% + 2.49; released after 30, 0 and 1 days. Prices are multiples of 100.00, so the fees are exact.
// Not seeded: installments, coupons, refunds, disputes, payouts, renewals, add-ons, failed charges.
const mid = (...parts) => `md5(${parts.join(" || '-' || ")})::uuid`
const v7 = (at, ...parts) => `pg_temp.v7(${at}, ${parts.join(" || '-' || ")})`

export const commerceSteps = (n, t0) => {
  const T0 = `'${t0}'::timestamptz`
  const PRODUCTS = 20
  const buyer = (i, prime) =>
    mid("'scale-prof'", "c.ci", `(7 + ((${i}::bigint * ${prime}) % ${Math.max(1, n.members - 6)}))`)
  const methods =
    `(VALUES ('CREDIT_CARD', 499, 49, 30), ('PIX', 199, 0, 0), ('BOLETO', 199, 249, 1)) v(method, bps, fixed, days)`
  return [
    ["orders", [
      `CREATE TEMP TABLE scale_sales (community_id uuid, charge_id uuid, sale_id uuid, release_tx_id uuid, release_id uuid,
        title text, amount bigint, method text, bps int, fixed int, days int, paid_at timestamptz,
        fee bigint, net bigint, release_at timestamptz)`,
      `INSERT INTO products (id, community_id, type, title, description, price, currency, allowed_payment_methods, status,
        published_at, created_at, updated_at)
      SELECT ${
        mid("'scale-product'", "c.ci", "k")
      }, c.community_id, 'ONE_TIME', 'Produto ' || k, 'Um produto da comunidade.',
        (1 + k % 10) * 10000, 'BRL', ARRAY['CREDIT_CARD','PIX','BOLETO'], 'ACTIVE',
        ${T0} - interval '800 days', ${T0} - interval '801 days', ${T0} - interval '800 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${PRODUCTS}) k`,
      `CREATE TEMP TABLE scale_orders AS
      SELECT c.community_id, c.ci, g.i, ${buyer("g.i", 7907)} AS profile_id,
        ${
        mid("'scale-product'", "c.ci", `(1 + g.i % ${PRODUCTS})`)
      } AS product_id, 'Produto ' || (1 + g.i % ${PRODUCTS}) AS title,
        (1 + (1 + g.i % ${PRODUCTS}) % 10) * 10000 AS amount, m.method, m.bps, m.fixed, m.days, x.paid_at,
        ${v7("x.paid_at", "'scale-charge'", "c.ci", "g.i")} AS charge_id
      FROM scale_c c CROSS JOIN generate_series(0, ${n.orders - 1}) g(i)
      CROSS JOIN LATERAL (SELECT ${T0} - make_interval(secs => 3600 + g.i::float8 * 63072000 / ${n.orders}) AS paid_at) x
      CROSS JOIN LATERAL (SELECT * FROM ${methods}
        WHERE v.method = (ARRAY['CREDIT_CARD','CREDIT_CARD','PIX','BOLETO'])[1 + g.i % 4]) m`,
      `INSERT INTO scale_sales (community_id, charge_id, title, amount, method, bps, fixed, days, paid_at)
      SELECT community_id, charge_id, 'Venda: ' || title, amount, method, bps, fixed, days, paid_at FROM scale_orders`,
      `INSERT INTO charges (id, community_id, profile_id, product_id, payment_method, installments, currency, list_amount, discount,
        amount, interest, total, fee, net, amounts, status, gateway, gateway_charge_id, paid_at, created_at, updated_at, submitted_at)
      SELECT o.charge_id, o.community_id, o.profile_id, o.product_id, o.method, 1, 'BRL', o.amount, 0, o.amount, 0, o.amount,
        f.fee, o.amount - f.fee,
        jsonb_build_object('amount', o.amount, 'currency', 'BRL', 'paymentMethod', o.method, 'installments', 1, 'interestRateBps', 0,
          'installmentAmount', o.amount, 'total', o.amount, 'interest', 0, 'feePercentBps', o.bps, 'feeFixed', o.fixed,
          'fee', f.fee, 'net', o.amount - f.fee),
        'paid', 'sandbox', 'sbx_' || md5(o.charge_id::text), o.paid_at, o.paid_at - interval '1 minute', o.paid_at,
        o.paid_at - interval '1 minute'
      FROM scale_orders o CROSS JOIN LATERAL (SELECT o.amount * o.bps / 10000 + o.fixed AS fee) f`,
      `INSERT INTO purchases (id, community_id, profile_id, product_id, charge_id, created_at)
      SELECT ${
        v7("paid_at", "'scale-purchase'", "ci", "i")
      }, community_id, profile_id, product_id, charge_id, paid_at FROM scale_orders`,
      `INSERT INTO entitlements (id, community_id, profile_id, source_type, source_id, valid_until, created_at)
      SELECT ${
        v7("paid_at", "'scale-entitlement'", "ci", "i")
      }, community_id, profile_id, 'product', product_id, NULL, paid_at
      FROM scale_orders`,
      `DROP TABLE scale_orders`
    ]],
    ["subscriptions", [
      `INSERT INTO subscription_groups (id, community_id, name, description, position, created_at, updated_at)
      SELECT ${mid("'scale-plan'", "c.ci")}, c.community_id, 'Assinatura', 'O plano da comunidade.', 0,
        ${T0} - interval '400 days', ${T0} - interval '400 days'
      FROM scale_c c`,
      `INSERT INTO products (id, community_id, type, title, description, price, currency, billing_interval, allowed_payment_methods,
        status, published_at, created_at, updated_at)
      SELECT ${
        mid("'scale-plan-option'", "c.ci", "k")
      }, c.community_id, 'SUBSCRIPTION', 'Plano ' || k, 'Acesso mensal.',
        k * 10000, 'BRL', 'MONTHLY', ARRAY['CREDIT_CARD'], 'ACTIVE', ${T0} - interval '400 days', ${T0} - interval '400 days',
        ${T0} - interval '400 days'
      FROM scale_c c CROSS JOIN generate_series(1, 2) k`,
      `INSERT INTO subscription_group_products (community_id, group_id, product_id, kind, position)
      SELECT c.community_id, ${mid("'scale-plan'", "c.ci")}, ${mid("'scale-plan-option'", "c.ci", "k")}, 'option', k - 1
      FROM scale_c c CROSS JOIN generate_series(1, 2) k`,
      `CREATE TEMP TABLE scale_subs AS
      SELECT c.community_id, c.ci, g.i, ${buyer("g.i", 6173)} AS profile_id, ${mid("'scale-plan'", "c.ci")} AS group_id,
        ${mid("'scale-plan-option'", "c.ci", "(1 + g.i % 2)")} AS product_id, 'Plano ' || (1 + g.i % 2) AS title,
        (1 + g.i % 2) * 10000 AS amount, x.paid_at, x.paid_at + interval '1 month' AS period_end,
        ${v7("x.paid_at - interval '1 minute'", "'scale-sub'", "c.ci", "g.i")} AS sub_id,
        ${v7("x.paid_at", "'scale-sub-charge'", "c.ci", "g.i")} AS charge_id
      FROM scale_c c CROSS JOIN generate_series(0, ${n.subscriptions - 1}) g(i)
      CROSS JOIN LATERAL (SELECT ${T0} - make_interval(secs => 3600 + g.i::float8 * 27 * 86400 / ${n.subscriptions}) AS paid_at) x`,
      `INSERT INTO scale_sales (community_id, charge_id, title, amount, method, bps, fixed, days, paid_at)
      SELECT community_id, charge_id, 'Venda: ' || title, amount, 'CREDIT_CARD', 499, 49, 30, paid_at FROM scale_subs`,
      `INSERT INTO charges (id, community_id, profile_id, product_id, subscription_group_id, payment_method, installments, currency,
        list_amount, discount, amount, interest, total, fee, net, amounts, status, gateway, gateway_charge_id, paid_at, created_at,
        updated_at, submitted_at)
      SELECT s.charge_id, s.community_id, s.profile_id, s.product_id, s.group_id, 'CREDIT_CARD', 1, 'BRL', s.amount, 0, s.amount, 0,
        s.amount, f.fee, s.amount - f.fee,
        jsonb_build_object('amount', s.amount, 'currency', 'BRL', 'paymentMethod', 'CREDIT_CARD', 'installments', 1,
          'interestRateBps', 0, 'installmentAmount', s.amount, 'total', s.amount, 'interest', 0, 'feePercentBps', 499,
          'feeFixed', 49, 'fee', f.fee, 'net', s.amount - f.fee),
        'paid', 'sandbox', 'sbx_' || md5(s.charge_id::text), s.paid_at, s.paid_at - interval '1 minute', s.paid_at,
        s.paid_at - interval '1 minute'
      FROM scale_subs s CROSS JOIN LATERAL (SELECT s.amount * 499 / 10000 + 49 AS fee) f`,
      `INSERT INTO subscriptions (id, community_id, profile_id, subscription_group_id, product_id, status, current_period_start,
        current_period_end, first_charge_id, created_at, updated_at, kind, price, currency, payment_method, card_token,
        billing_anchor, period_index)
      SELECT sub_id, community_id, profile_id, group_id, product_id, 'active', paid_at, period_end, charge_id,
        paid_at - interval '1 minute', paid_at, 'paid', amount, 'BRL', 'CREDIT_CARD', 'tok_visa', paid_at, 1
      FROM scale_subs`,
      `INSERT INTO subscription_billings (id, community_id, subscription_id, key, reason, period_start, period_end, list_amount,
        discount, amount, currency, payment_method, fee, net, status, attempts, paid_at, created_at, updated_at)
      SELECT charge_id, community_id, sub_id, 'initial:' || sub_id, 'initial', paid_at, period_end, amount, 0, amount, 'BRL',
        'CREDIT_CARD', amount * 499 / 10000 + 49, amount - (amount * 499 / 10000 + 49), 'paid', 1, paid_at, paid_at, paid_at
      FROM scale_subs`,
      `INSERT INTO entitlements (id, community_id, profile_id, source_type, source_id, valid_until, created_at)
      SELECT ${
        v7("paid_at", "'scale-sub-plan'", "ci", "i")
      }, community_id, profile_id, 'plan', group_id, period_end, paid_at
      FROM scale_subs
      UNION ALL
      SELECT ${
        v7("paid_at", "'scale-sub-product'", "ci", "i")
      }, community_id, profile_id, 'product', product_id, period_end, paid_at
      FROM scale_subs`,
      `INSERT INTO jobs (id, kind, key, payload, run_at, max_attempts, created_at)
      SELECT ${v7("paid_at", "'scale-sub-job'", "ci", "i")}::text, 'subscriptions.period-end',
        sub_id || ':' || to_char(period_end, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        jsonb_build_object('communityId', community_id, 'subscriptionId', sub_id,
          'at', to_char(period_end, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        period_end, 5, paid_at
      FROM scale_subs`,
      `DROP TABLE scale_subs`
    ]],
    ["ledger", [
      `UPDATE scale_sales SET fee = amount * bps / 10000 + fixed, net = amount - (amount * bps / 10000 + fixed),
        release_at = paid_at + make_interval(days => days), sale_id = md5('scale-sale-' || charge_id)::uuid,
        release_tx_id = md5('scale-release-tx-' || charge_id)::uuid, release_id = md5('scale-release-' || charge_id)::uuid`,
      `INSERT INTO ledger_transactions (id, community_id, kind, idempotency_key, reference, description, occurred_at, posted_at,
        payment_method, currency, gross, fee, interest, net)
      SELECT sale_id, community_id, 'sale', 'sale:' || charge_id, charge_id::text, title, paid_at, paid_at,
        method, 'BRL', amount, fee, 0, net FROM scale_sales
      UNION ALL
      SELECT release_tx_id, community_id, 'release', 'release:' || sale_id, charge_id::text, title, release_at,
        release_at, NULL, NULL, NULL, NULL, NULL, NULL FROM scale_sales WHERE release_at <= ${T0} AND net > 0`,
      `INSERT INTO ledger_releases (id, community_id, sale_transaction_id, reference, description, currency, amount, release_at,
        released_at, release_transaction_id)
      SELECT release_id, community_id, sale_id, charge_id::text, title, 'BRL', net, release_at,
        CASE WHEN release_at <= ${T0} THEN release_at END, CASE WHEN release_at <= ${T0} THEN release_tx_id END
      FROM scale_sales WHERE net > 0`,
      // Entries in posting order (a release after the sale it releases), each with its running balance.
      `INSERT INTO ledger_entries (id, community_id, transaction_id, kind, account, currency, amount, balance_after, posted_at)
      SELECT md5('scale-entry-' || e.transaction_id || '-' || e.account)::uuid, e.community_id, e.transaction_id, e.kind, e.account,
        'BRL', e.amount,
        sum(e.amount) OVER (PARTITION BY e.community_id, e.account ORDER BY e.posted_at, e.tx_order, e.transaction_id
          ROWS UNBOUNDED PRECEDING),
        e.posted_at
      FROM (
        SELECT o.community_id, o.sale_id AS transaction_id, 'sale' AS kind, x.account, x.amount, o.paid_at AS posted_at,
          0 AS tx_order, x.ord
        FROM scale_sales o CROSS JOIN LATERAL (VALUES ('buyer_payments', -o.amount, 0), ('platform_fees', o.fee, 1),
          ('community_pending', o.net, 3)) x(account, amount, ord)
        WHERE x.amount <> 0
        UNION ALL
        SELECT o.community_id, o.release_tx_id, 'release', x.account, x.amount, o.release_at, 1, x.ord
        FROM scale_sales o CROSS JOIN LATERAL (VALUES ('community_pending', -o.net, 0), ('community_available', o.net, 1))
          x(account, amount, ord)
        WHERE o.release_at <= ${T0} AND o.net > 0
      ) e
      ORDER BY e.posted_at, e.tx_order, e.transaction_id, e.ord`,
      `INSERT INTO ledger_balances (community_id, account, currency, balance, updated_at)
      SELECT community_id, account, currency, sum(amount), max(posted_at) FROM ledger_entries
      GROUP BY community_id, account, currency`,
      `DROP TABLE scale_sales`
    ]]
  ]
}
