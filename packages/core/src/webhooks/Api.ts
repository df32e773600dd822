import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, HttpUrl, Trimmed } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { WEBHOOK_EVENT_TYPES } from "./eventTypes"

const EventType = Schema.Literal(...WEBHOOK_EVENT_TYPES).annotations({
  message: () => "must be an event type of the list (GET /api/openapi.json, `webhooks`), or *"
})
const Subscribed = Schema.Union(EventType, Schema.Literal("*"))
const Events = Schema.Array(Subscribed).pipe(
  Schema.minItems(1, { message: () => "must name at least one event type, or *" }),
  Schema.maxItems(WEBHOOK_EVENT_TYPES.length + 1, { message: () => "must not repeat an event type" })
)

const Endpoint = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Schema.String).annotations({
    description: "`failing` when Roda disabled it (5 days of failures, or 50 in a row); null otherwise"
  }),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const WithSecret = Schema.extend(
  Endpoint,
  Schema.Struct({
    secret: Schema.String.annotations({ description: "`whsec_…`: the Standard Webhooks signing secret" })
  })
)

const Rotated = Schema.extend(
  WithSecret,
  Schema.Struct({ previousSecretExpiresAt: Schema.NullOr(Schema.String) })
)

const Delivery = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  status: Schema.Literal("pending", "succeeded", "failed"),
  attempts: Schema.Number,
  lastStatusCode: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

const Event = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  timestamp: Schema.String,
  data: Schema.Unknown
})

const ID = Schema.Struct({ id: Uuid })
const DeliveryID = Schema.Struct({ deliveryId: Uuid })
const MANAGERS =
  "Owner or admin, or an API key with `webhooks:manage` (403 `Função necessária: owner ou admin. Sua função: …` otherwise); another community's webhook: 404."

const NewWebhook = Body({
  url: HttpUrl,
  events: Events,
  description: Schema.optional(Trimmed(500))
})

const WebhookChanges = Body({
  url: Schema.optional(HttpUrl),
  events: Schema.optional(Events),
  description: Schema.optional(Schema.NullOr(Trimmed(500))),
  enabled: Schema.optional(Schema.Boolean)
})

/** Webhooks out (Standard Webhooks), per community. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .annotateContext(OpenApi.annotations({
    title: "Webhooks",
    description:
      "Events of the community sent to endpoints of its own (Standard Webhooks): each delivery a `POST` of `{ type, timestamp, data }` signed in `webhook-signature`, retried about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after failures."
  }))
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(NewWebhook)
      .addSuccess(Ok(WithSecret), { status: 201 })
      .addError(declared(InvalidInput, "url_not_allowed"))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Create a webhook")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} \`url\`: \`https\` to a public address (\`http\`, loopback and private addresses only where the server sets \`WEBHOOKS_ALLOW_PRIVATE=true\`); the address is checked again after DNS resolution on every attempt, and redirects are not followed. \`events\`: types of the list, or \`*\` for all. Answers the signing \`secret\` (\`whsec_…\`).`
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Endpoint))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Webhooks")
      .annotate(OpenApi.Description, `${MANAGERS} Newest first (keyset: \`limit\`, \`cursor\`); without secrets.`)
  )
  .add(
    HttpApiEndpoint.get("get", "/webhooks/:id")
      .setPath(ID)
      .addSuccess(Ok(Endpoint))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "A webhook")
      .annotate(OpenApi.Description, MANAGERS)
  )
  .add(
    HttpApiEndpoint.put("update", "/webhooks/:id")
      .setPath(ID)
      .setPayload(WebhookChanges)
      .addSuccess(Ok(Endpoint))
      .addError(declared(InvalidInput, "url_not_allowed"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Change a webhook")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Fields left out stay. \`enabled: true\` on a webhook Roda disabled starts its failure count afresh; its deliveries still pending go out again.`
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/webhooks/:id")
      .setPath(ID)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Delete a webhook")
      .annotate(OpenApi.Description, `${MANAGERS} Nothing more is sent to it, pending deliveries included.`)
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/webhooks/:id/rotate-secret")
      .setPath(ID)
      .addSuccess(Ok(Rotated))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Rotate a webhook's secret")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Answers the new secret; the old one keeps signing beside it for 24 hours (\`previousSecretExpiresAt\`): \`webhook-signature\` then holds both signatures.`
      )
  )
  .add(
    HttpApiEndpoint.post("test", "/webhooks/:id/test")
      .setPath(ID)
      .addSuccess(Ok(Schema.Struct({ eventId: Schema.String })))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(declared(Conflict, "webhook_disabled"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Send a test event")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Sends \`webhook.test\` to this webhook alone, as any event (signed, retried, in its deliveries). A disabled webhook: 409.`
      )
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries")
      .setPath(ID)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Delivery))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "webhook_not_found"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "A webhook's deliveries")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Newest first (keyset): \`status\` (\`pending\`, \`succeeded\`, \`failed\`: no attempt left), \`attempts\`, \`lastStatusCode\`, \`lastError\`, \`nextAttemptAt\` (pending only).`
      )
  )
  .add(
    HttpApiEndpoint.post("retry", "/webhooks/deliveries/:deliveryId/retry")
      .setPath(DeliveryID)
      .addSuccess(Ok(Delivery))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "delivery_not_found"))
      .addError(declared(Conflict, "webhook_disabled"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Send a delivery again")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Due at once (its attempts go on counting), whatever its status; the same \`webhook-id\`. A disabled webhook: 409.`
      )
  )
  .add(
    HttpApiEndpoint.get("events", "/webhook-events")
      .setUrlParams(Schema.extend(PageQuery, Schema.Struct({ type: Schema.optional(EventType) })))
      .addSuccess(Page(Event))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "The community's events")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} The events of the last 30 days, newest first (keyset), as delivered: \`id\` (the \`webhook-id\`), \`type\`, \`timestamp\`, \`data\`; \`type\` filters.`
      )
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
