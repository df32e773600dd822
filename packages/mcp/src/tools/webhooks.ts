import { Webhooks } from "@roda/core"
import { Effect } from "effect"
import { adds, reads, routeTool, sets, type ToolSpec } from "../tool"

/**
 * The community's webhooks, for an assistant that wires Roda to another tool: owners and admins
 * (the routes' rule). Deleting a webhook and rotating its secret stay with people, in the API.
 */
export const webhookTools: ReadonlyArray<ToolSpec> = [
  routeTool("webhooks", "list", {
    name: "list_webhooks",
    title: "List webhooks",
    description: "Owners and admins: the community's webhook endpoints (url, events, enabled), newest first.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Webhooks, (w) => w.list(member, urlParams))
  }),
  routeTool("webhooks", "create", {
    name: "create_webhook",
    title: "Create a webhook",
    description:
      "Owners and admins: sends the community's events of `events` (types such as `member.joined`, or `*`) to `url` (https, public). Answers the signing `secret` (`whsec_…`) the receiver verifies deliveries with (Standard Webhooks).",
    hints: adds,
    run: ({ payload }, member) => Effect.flatMap(Webhooks, (w) => w.create(member, payload))
  }),
  routeTool("webhooks", "update", {
    name: "update_webhook",
    title: "Change a webhook",
    description: "Owners and admins: changes `url`, `events`, `description` or `enabled` of the webhook `id`.",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Webhooks, (w) => w.update(member, path.id, payload))
  }),
  routeTool("webhooks", "test", {
    name: "send_test_webhook",
    title: "Send a test event",
    description: "Owners and admins: sends `webhook.test` to the webhook `id`; see it in `webhook_deliveries`.",
    hints: adds,
    run: ({ path }, member) => Effect.flatMap(Webhooks, (w) => w.test(member, path.id))
  }),
  routeTool("webhooks", "deliveries", {
    name: "webhook_deliveries",
    title: "A webhook's deliveries",
    description:
      "Owners and admins: the deliveries of the webhook `id`, newest first: status (pending, succeeded, failed), attempts, the last answer's status code and error, the next attempt.",
    hints: reads,
    run: ({ path, urlParams }, member) => Effect.flatMap(Webhooks, (w) => w.deliveries(member, path.id, urlParams))
  }),
  routeTool("webhooks", "retry", {
    name: "retry_webhook_delivery",
    title: "Send a delivery again",
    description: "Owners and admins: sends the delivery `deliveryId` again now (same `webhook-id`).",
    hints: sets,
    run: ({ path }, member) => Effect.flatMap(Webhooks, (w) => w.retry(member, path.deliveryId))
  }),
  routeTool("webhooks", "events", {
    name: "list_webhook_events",
    title: "The community's events",
    description:
      "Owners and admins: the events of the last 30 days as webhooks received them, newest first; `type` filters.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Webhooks, (w) => w.events(member, urlParams))
  })
]
