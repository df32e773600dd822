import { type AppError, Coupons, type Member, Plans, Products, Refunds, Reports, Subscriptions } from "@roda/core"
import { Effect } from "effect"
import { adds, ends, reads, routeTool, type ToolSpec } from "../tool"

const reportKinds = ["subscriptions", "members", "engagement", "events", "courses", "overview"] as const

export const commerceTools: ReadonlyArray<ToolSpec> = [
  routeTool("products", "list", {
    name: "list_products",
    title: "List products",
    description: "Staff: the community's products (courses, events, memberships for sale) with prices in minor units.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Products, (p) => p.list(member, urlParams))
  }),
  routeTool("subscriptionGroups", "list", {
    name: "list_plans",
    title: "List subscription plans",
    description: "Staff: the community's subscription plans and their billing options.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Plans, (p) => p.list(member, urlParams))
  }),
  routeTool("coupons", "list", {
    name: "list_coupons",
    title: "List coupons",
    description: "Staff: the community's coupons with their status and redemptions.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Coupons, (c) => c.list(member, urlParams))
  }),
  routeTool("coupons", "create", {
    name: "create_coupon",
    title: "Create a coupon",
    description:
      "Staff: a coupon `code` with `percentOff` (1-100) or `amountOff` (minor units, with `currency`), `duration` once, repeating (`durationMonths`) or forever, optional products, redemption limit and expiry.",
    hints: adds,
    run: ({ payload }, member) => Effect.flatMap(Coupons, (c) => c.create(member, payload))
  }),
  routeTool("manageSubscriptions", "list", {
    name: "list_subscriptions",
    title: "List subscriptions",
    description: "Staff: the community's subscriptions (filter by status, plan or member in the query fields).",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Subscriptions, (s) => s.teamList(member, urlParams))
  }),
  routeTool("manageSubscriptions", "cancel", {
    name: "cancel_subscription_at_period_end",
    title: "Cancel a subscription at period end",
    description:
      "Staff: marks the active subscription `subscriptionId` to end when its paid period ends (no refund; access lasts until then).",
    hints: ends,
    fixed: { when: "period_end" },
    omit: ["refund"],
    run: ({ path, payload }, member) =>
      Effect.flatMap(Subscriptions, (s) => s.teamCancel(member, path.subscriptionId, payload))
  }),
  routeTool("purchasesManage", "list", {
    name: "list_sales",
    title: "List sales",
    description:
      "Owner, admin or finance: the community's sales (purchases), newest first, with amounts in minor units.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Refunds, (r) => r.list(member, urlParams))
  }),
  routeTool("reports", "sales", {
    name: "sales_report",
    title: "Sales report",
    description:
      "Owner, admin or finance: sales per day, week or month (`interval`) between `from` and `to`: gross, fees, net, refunds, by payment method, with totals.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Reports, (r) => r.sales(member, urlParams))
  }),
  ...reportKinds.map((kind) =>
    routeTool("reports", kind, {
      name: `${kind}_report`,
      title: `${kind[0]!.toUpperCase()}${kind.slice(1)} report`,
      description:
        `Owner, admin or finance: the ${kind} series per day, week or month (\`interval\`) between \`from\` and \`to\`, zero-filled, with totals.`,
      hints: reads,
      run: ({ urlParams }, member) =>
        Effect.flatMap(Reports, (reports) => {
          // Each report takes the same query; TypeScript cannot pick one of a union of functions.
          const report = reports[kind] as (member: Member, query: typeof urlParams) => Effect.Effect<unknown, AppError>
          return report(member, urlParams)
        })
    })
  )
]
