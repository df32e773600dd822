import { JSONSchema, Schema } from "effect"
import { Profile } from "../communities/ProfilesApi"
import { Course, Enrollment } from "../courses/Api"
import { Event } from "../events/Api"
import type { WebhookEventType } from "./eventTypes"

const withCommunity = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ...fields, communityId: Schema.String })

/**
 * The events Roda sends so far, each with what its `data` holds: the resource as its detail route
 * answers it (the staff view), with `communityId`. The rest of the list in `eventTypes.ts` join as
 * their features write them (issue 54, item 3).
 */
const payloads: Partial<Record<WebhookEventType, { readonly summary: string; readonly data: Schema.Schema.Any }>> = {
  "member.joined": {
    summary: "Someone became a member: added, or accepted an invitation (the profile)",
    data: withCommunity(Profile.fields)
  },
  "member.role_changed": {
    summary: "A member's role changed (the profile, and `previousRole`)",
    data: withCommunity({ ...Profile.fields, previousRole: Schema.String })
  },
  "member.left": {
    summary: "A member left or was removed (the profile as it was, and `removedAt`)",
    data: withCommunity({ ...Profile.fields, removedAt: Schema.String })
  },
  "course.published": {
    summary: "A course was published (the course as its detail route answers staff)",
    data: Schema.Struct({ ...Course.fields, communityId: Schema.String })
  },
  "enrollment.created": {
    summary: "A member enrolled in a course (the enrollment)",
    data: withCommunity(Enrollment.fields)
  },
  "event.created": {
    summary: "An event was created (the event as its detail route answers staff)",
    data: Schema.Struct(Event.fields)
  },
  "event.canceled": {
    summary: "An event was canceled: deleted by its host or staff (the event as it was, and `canceledAt`)",
    data: Schema.Struct({ ...Event.fields, canceledAt: Schema.String })
  },
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
