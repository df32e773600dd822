import { JSONSchema, Schema } from "effect"
import { certificatePayloads } from "./payloads/certificates"
import { commercePayloads } from "./payloads/commerce"
import { coursePayloads } from "./payloads/courses"
import { eventPayloads } from "./payloads/events"
import { memberPayloads } from "./payloads/members"
import { moderationPayloads } from "./payloads/moderation"
import { type Payloads, withCommunity } from "./payloads/payload"
import { payoutPayloads } from "./payloads/payouts"
import { socialPayloads } from "./payloads/social"
import { submissionPayloads } from "./payloads/submissions"
import { subscriptionPayloads } from "./payloads/subscriptions"

/**
 * The events Roda sends, each with what its `data` holds: the resource as its detail route answers
 * it (the staff view), with `communityId`. Each feature's payloads live in `payloads/`.
 */
const payloads: Payloads = {
  ...memberPayloads,
  ...coursePayloads,
  ...eventPayloads,
  ...socialPayloads,
  ...commercePayloads,
  ...payoutPayloads,
  ...subscriptionPayloads,
  ...certificatePayloads,
  ...submissionPayloads,
  ...moderationPayloads,
  "webhook.test": {
    summary: "Sent by `POST /api/webhooks/{id}/test` to that webhook alone",
    data: withCommunity({ webhookId: Schema.String })
  }
}

const dataSchema = (data: Schema.Schema.Any) => {
  const { $schema: _, ...schema } = JSONSchema.make(data as Schema.Schema<unknown, unknown>, { target: "openApi3.1" })
  return schema
}

/**
 * The document's `webhooks` (OpenAPI 3.1): each event as the `POST` a receiver gets, its body
 * `{ type, timestamp, data }` and the Standard Webhooks headers.
 */
export const addWebhooks = <S extends object>(spec: S): S => ({
  ...spec,
  webhooks: Object.fromEntries(
    Object.entries(payloads).map(([type, payload]) => [type, {
      post: {
        operationId: `webhook.${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}`,
        summary: payload!.summary,
        description:
          "Signed as Standard Webhooks say: verify `webhook-signature` over `{webhook-id}.{webhook-timestamp}.{body}` with the webhook's secret. Answer 2xx within 10 s; anything else is retried.",
        parameters: [
          {
            name: "webhook-id",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "The event id: the same on every retry"
          },
          {
            name: "webhook-timestamp",
            in: "header",
            required: true,
            schema: { type: "integer" },
            description: "Seconds since the epoch"
          },
          {
            name: "webhook-signature",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "`v1,<base64>` per active secret, space separated"
          }
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "timestamp", "data"],
                properties: {
                  type: { type: "string", enum: [type] },
                  timestamp: { type: "string", format: "date-time" },
                  data: dataSchema(payload!.data)
                }
              }
            }
          }
        },
        responses: { "2XX": { description: "Received" } }
      }
    }])
  )
})
