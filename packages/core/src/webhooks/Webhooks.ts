import { Clock, Effect, Option, Schema } from "effect"
import { conflict, invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { managerRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { Options } from "../platform/Options"
import { isPublicHost } from "../platform/publicHost"
import { traced } from "../platform/traced"
import { WebhookMessages as M } from "./messages"
import { type EndpointChanges, WebhooksRepo } from "./Repo"
import type { DeliveryRow, EndpointRow, EventRow } from "./rows"
import { newSecret } from "./signature"

/** The previous secret signs beside a new one this long after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3600_000
/** The event log keeps a community's events this long. */
export const EVENT_LOG_DAYS = 30

const view = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

const deliveryView = (row: DeliveryRow) => ({
  ...row,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString()
})

const eventView = (row: EventRow) => ({
  id: row.id,
  type: row.type,
  timestamp: row.createdAt.toISOString(),
  data: row.data
})

const IdCursor = Schema.Tuple(Uuid)
const DeliveryCursor = Schema.Tuple(CursorPart.timestamp, CursorPart.uuid)

export interface NewWebhook {
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description?: string | undefined
}

/** The community's webhook endpoints, their deliveries and its event log: owners and admins. */
export class Webhooks extends Effect.Service<Webhooks>()("@roda/core/Webhooks", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const ids = yield* Ids
    const allowPrivate = (yield* Options).webhooksAllowPrivate === true
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** `https` to a public name, or (with `webhooksAllowPrivate`) `http` and any host. */
    const checkUrl = (url: string) => {
      const parsed = new URL(url)
      const allowed = parsed.username === "" && parsed.password === "" &&
        (allowPrivate || (parsed.protocol === "https:" && isPublicHost(parsed.hostname)))
      return allowed ? Effect.void : Effect.fail(invalidField("url", M.urlNotAllowed))
    }

    const found = (member: Member, id: string) =>
      Effect.flatMap(
        repo.endpoint(member.communityId, id),
        Option.match({ onNone: () => Effect.fail(notFound(M.webhookNotFound)), onSome: Effect.succeed })
      )

    const create = traced("Webhooks.create")(function*(member: Member, input: NewWebhook) {
      yield* requireRole(member, managerRoles)
      yield* checkUrl(input.url)
      const row = yield* repo.insertEndpoint({
        id: yield* ids.next,
        communityId: member.communityId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        secret: newSecret(),
        at: yield* now
      })
      return { ...view(row), secret: row.secret }
    })

    const list = traced("Webhooks.list")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, managerRoles)
      return yield* paginate(
        query,
        IdCursor,
        (after, limit) =>
          Effect.map(repo.endpoints(member.communityId, after?.[0], limit + 1), (rows) => rows.map(view)),
        (row) => [row.id]
      )
    })

    const get = traced("Webhooks.get")(function*(member: Member, id: string) {
      yield* requireRole(member, managerRoles)
      return view(yield* found(member, id))
    })

    const update = traced("Webhooks.update")(function*(member: Member, id: string, changes: EndpointChanges) {
      yield* requireRole(member, managerRoles)
      if (changes.url !== undefined) yield* checkUrl(changes.url)
      const events = changes.events === undefined ? undefined : [...new Set(changes.events)]
      const updated = yield* repo.updateEndpoint(member.communityId, id, { ...changes, events }, yield* now)
      if (Option.isNone(updated)) return yield* Effect.fail(notFound(M.webhookNotFound))
      return view(updated.value)
    })

    const remove = traced("Webhooks.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, managerRoles)
      const removed = yield* repo.deleteEndpoint(member.communityId, id, yield* now)
      if (!removed) return yield* Effect.fail(notFound(M.webhookNotFound))
    })

    const rotate = traced("Webhooks.rotate")(function*(member: Member, id: string) {
      yield* requireRole(member, managerRoles)
      const at = yield* now
      const rotated = yield* repo.rotate(
        member.communityId,
        id,
        newSecret(),
        new Date(at.getTime() + ROTATION_OVERLAP_MS),
        at
      )
      if (Option.isNone(rotated)) return yield* Effect.fail(notFound(M.webhookNotFound))
      return {
        ...view(rotated.value),
        secret: rotated.value.secret,
        previousSecretExpiresAt: rotated.value.previousSecretUntil?.toISOString() ?? null
      }
    })

    /** `webhook.test` to this endpoint alone, delivered as any event; a disabled endpoint is enabled first (409). */
    const test = traced("Webhooks.test")(function*(member: Member, id: string) {
      yield* requireRole(member, managerRoles)
      const endpoint = yield* found(member, id)
      if (!endpoint.enabled) return yield* Effect.fail(conflict(M.webhookDisabled))
      const eventId = yield* ids.next
      yield* repo.emit({
        id: eventId,
        communityId: member.communityId,
        type: "webhook.test",
        data: JSON.stringify({ communityId: member.communityId, webhookId: endpoint.id }),
        at: yield* now
      }, endpoint.id)
      return { eventId }
    })

    const deliveries = traced("Webhooks.deliveries")(function*(member: Member, id: string, query: PageQuery) {
      yield* requireRole(member, managerRoles)
      const endpoint = yield* found(member, id)
      return yield* paginate(
        query,
        DeliveryCursor,
        (after, limit) => Effect.map(repo.deliveries(endpoint.id, after, limit + 1), (rows) => rows.map(deliveryView)),
        (row) => [row.createdAt, row.id]
      )
    })

    const retry = traced("Webhooks.retry")(function*(member: Member, deliveryId: string) {
      yield* requireRole(member, managerRoles)
      const delivery = yield* repo.delivery(member.communityId, deliveryId)
      if (Option.isNone(delivery)) return yield* Effect.fail(notFound(M.deliveryNotFound))
      if (!delivery.value.enabled) return yield* Effect.fail(conflict(M.webhookDisabled))
      return deliveryView(yield* repo.retry(deliveryId, yield* now))
    })

    const events = traced("Webhooks.events")(function*(
      member: Member,
      query: PageQuery & { readonly type?: string | undefined }
    ) {
      yield* requireRole(member, managerRoles)
      const since = new Date((yield* now).getTime() - EVENT_LOG_DAYS * 24 * 3600_000)
      return yield* paginate(
        query,
        IdCursor,
        (after, limit) =>
          Effect.map(
            repo.events(member.communityId, query.type, since, after?.[0], limit + 1),
            (rows) => rows.map(eventView)
          ),
        (row) => [row.id]
      )
    })

    return { create, list, get, update, remove, rotate, test, deliveries, retry, events }
  })
}) {}
