import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Schema } from "effect"
import { decodeRows, firstRow } from "../domain/Rows"
import { ClaimedRow, DeliveryRow, EndpointRow, EventRow } from "./rows"

const decodeEndpoints = decodeRows(EndpointRow)
const firstEndpoint = firstRow(EndpointRow)
const decodeDeliveries = decodeRows(DeliveryRow)
const firstDelivery = firstRow(Schema.Struct({ id: Schema.String, endpointId: Schema.String, enabled: Schema.Boolean }))
const decodeEvents = decodeRows(EventRow)
const decodeClaimed = decodeRows(ClaimedRow)
const firstDisabled = firstRow(Schema.Struct({ communityId: Schema.String, url: Schema.String }))

export interface NewEndpoint {
  readonly id: string
  readonly communityId: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly secret: string
  readonly at: Date
}

export interface EndpointChanges {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly enabled?: boolean | undefined
}

/** SQL of the webhooks (their own tables only). */
export class WebhooksRepo extends Effect.Service<WebhooksRepo>()("@roda/core/WebhooksRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const endpointColumns = sql`id, community_id, url, events, description, enabled, secret, previous_secret,
      previous_secret_until, disabled_reason, created_at, updated_at`
    const deliveryColumns = sql`d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempts,
      d.last_status_code, d.last_error, CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at,
      d.created_at`

    /** A delivery of the event in the CTE `event` to each endpoint that wants it (or to `onlyEndpoint`). */
    const deliveriesOf = (
      cte: "event" | "webhook_event",
      event: { communityId: string; type: string; at: Date },
      onlyEndpoint?: string
    ) =>
      sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
        SELECT gen_random_uuid(), e.id, ${sql(cte)}.id, ${event.at}, ${event.at}
        FROM webhook_endpoints e CROSS JOIN ${sql(cte)}
        WHERE e.community_id = ${event.communityId} AND e.deleted_at IS NULL AND ${
        onlyEndpoint === undefined
          ? sql`e.enabled AND (e.events ? ${event.type} OR e.events ? '*')`
          : sql`e.id = ${onlyEndpoint}`
      }`

    return {
      insertEndpoint: (row: NewEndpoint) =>
        sql`INSERT INTO webhook_endpoints (id, community_id, url, events, description, secret, created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.url}, ${JSON.stringify(row.events)}::jsonb, ${row.description},
            ${row.secret}, ${row.at}, ${row.at})
          RETURNING ${endpointColumns}`.pipe(
          Effect.flatMap(decodeEndpoints),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      endpoints: (communityId: string, before: string | undefined, limit: number) =>
        sql`SELECT ${endpointColumns} FROM webhook_endpoints
          WHERE community_id = ${communityId} AND deleted_at IS NULL
          ${before === undefined ? sql`` : sql`AND id < ${before}`}
          ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie),
      endpoint: (communityId: string, id: string) =>
        sql`SELECT ${endpointColumns} FROM webhook_endpoints
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL`.pipe(
          Effect.flatMap(firstEndpoint),
          Effect.orDie
        ),
      /** Re-enabling clears the failure count, so an endpoint that was disabled starts afresh. */
      updateEndpoint: (communityId: string, id: string, changes: EndpointChanges, at: Date) =>
        sql`UPDATE webhook_endpoints SET
            url = coalesce(${changes.url ?? null}, url),
            events = coalesce(${changes.events === undefined ? null : JSON.stringify(changes.events)}::jsonb, events),
            description = CASE WHEN ${changes.description !== undefined} THEN ${changes.description ?? null}
              ELSE description END,
            enabled = coalesce(${changes.enabled ?? null}, enabled),
            consecutive_failures = CASE WHEN ${changes.enabled === true} AND NOT enabled THEN 0
              ELSE consecutive_failures END,
            failing_since = CASE WHEN ${changes.enabled === true} AND NOT enabled THEN NULL ELSE failing_since END,
            disabled_reason = CASE WHEN ${changes.enabled === true} THEN NULL ELSE disabled_reason END,
            updated_at = ${at}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL
          RETURNING ${endpointColumns}`.pipe(Effect.flatMap(firstEndpoint), Effect.orDie),
      deleteEndpoint: (communityId: string, id: string, at: Date) =>
        sql`UPDATE webhook_endpoints SET deleted_at = ${at}, enabled = false
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** The new secret signs from now; the current one keeps signing beside it until `until`. */
      rotate: (communityId: string, id: string, secret: string, until: Date, at: Date) =>
        sql`UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ${until},
            secret = ${secret}, updated_at = ${at}
          WHERE community_id = ${communityId} AND id = ${id} AND deleted_at IS NULL
          RETURNING ${endpointColumns}`.pipe(Effect.flatMap(firstEndpoint), Effect.orDie),
      /**
       * The event and a delivery to each live endpoint of the community that wants its type (or,
       * with `onlyEndpoint`, to that one alone), in one statement.
       */
      emit: (
        event: { id: string; communityId: string; type: string; data: string; at: Date },
        onlyEndpoint?: string
      ) =>
        sql`WITH event AS (
            INSERT INTO webhook_events (id, community_id, type, data, created_at)
            VALUES (${event.id}, ${event.communityId}, ${event.type}, ${event.data}::jsonb, ${event.at})
            RETURNING id
          )
          ${deliveriesOf("event", event, onlyEndpoint)}`.pipe(Effect.asVoid, Effect.orDie),
      /** `emit` as two CTEs for the caller's own statement: the event only when `source.from` has a row. */
      emitWithin: (
        event: { id: string; communityId: string; type: string; at: Date },
        source: { readonly data: Fragment; readonly from: Fragment }
      ) =>
        sql`webhook_event AS (
            INSERT INTO webhook_events (id, community_id, type, data, created_at)
            SELECT ${event.id}, ${event.communityId}, ${event.type},
              ${source.data} || jsonb_build_object('communityId', ${event.communityId}::text), ${event.at}
            FROM ${source.from}
            RETURNING id
          ),
          webhook_delivery AS (${deliveriesOf("webhook_event", event)})`,
      deliveries: (endpointId: string, before: readonly [string, string] | undefined, limit: number) =>
        sql`SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
          WHERE d.endpoint_id = ${endpointId}
          ${before === undefined ? sql`` : sql`AND (d.created_at, d.id) < (${new Date(before[0])}, ${before[1]})`}
          ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeDeliveries), Effect.orDie),
      /** The delivery of an endpoint of the community, with whether that endpoint is enabled. */
      delivery: (communityId: string, id: string) =>
        sql`SELECT d.id, d.endpoint_id, e.enabled FROM webhook_deliveries d
          JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.deleted_at IS NULL
          WHERE d.id = ${id} AND e.community_id = ${communityId}`.pipe(Effect.flatMap(firstDelivery), Effect.orDie),
      /** Due now; its attempts go on counting. */
      retry: (id: string, at: Date) =>
        sql`UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = ${at}, locked_until = NULL
          FROM webhook_events ev WHERE d.id = ${id} AND ev.id = d.event_id RETURNING ${deliveryColumns}`.pipe(
          Effect.flatMap(decodeDeliveries),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      /** Deletes up to `limit` events written before `before`, with their deliveries (cascade); how many. */
      deleteEventsBefore: (before: Date, limit: number) =>
        sql`DELETE FROM webhook_events WHERE id IN (
            SELECT id FROM webhook_events WHERE created_at < ${before} LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ) RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie),
      events: (
        communityId: string,
        type: string | undefined,
        since: Date,
        before: string | undefined,
        limit: number
      ) =>
        sql`SELECT id, type, data, created_at FROM webhook_events
          WHERE community_id = ${communityId} AND created_at >= ${since}
          ${type === undefined ? sql`` : sql`AND type = ${type}`}
          ${before === undefined ? sql`` : sql`AND id < ${before}`}
          ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeEvents), Effect.orDie),
      /**
       * Up to `limit` due deliveries of enabled endpoints, at most `perEndpoint` of each and none of
       * `busy` (endpoints with that many in flight here), leased until `leaseUntil`: one statement.
       */
      claim: (limit: number, perEndpoint: number, busy: ReadonlyArray<string>, now: Date, leaseUntil: Date) =>
        sql`WITH due AS (
            SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
              AND (d.locked_until IS NULL OR d.locked_until < ${now})
              AND NOT (d.endpoint_id = ANY(${`{${busy.join(",")}}`}::uuid[]))
            ORDER BY d.next_attempt_at LIMIT ${limit * 4} FOR UPDATE SKIP LOCKED
          ), picked AS (
            SELECT due.id FROM (
              SELECT due.*, row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at) AS n
              FROM due
            ) due JOIN webhook_endpoints e ON e.id = due.endpoint_id AND e.enabled AND e.deleted_at IS NULL
            WHERE due.n <= ${perEndpoint} ORDER BY due.next_attempt_at LIMIT ${limit}
          )
          UPDATE webhook_deliveries d SET attempts = d.attempts + 1, locked_until = ${leaseUntil}
          FROM picked, webhook_endpoints e, webhook_events ev
          WHERE d.id = picked.id AND e.id = d.endpoint_id AND ev.id = d.event_id
          RETURNING d.id, d.endpoint_id, e.community_id, d.attempts, e.url, e.secret, e.previous_secret,
            e.previous_secret_until, ev.id AS event_id, ev.type AS event_type, ev.data, ev.created_at AS event_at`.pipe(
          Effect.flatMap(decodeClaimed),
          Effect.orDie
        ),
      /** Deliveries that succeeded; their endpoints' failures are forgotten. One statement for them all. */
      succeeded: (done: ReadonlyArray<{ id: string; attempts: number; statusCode: number }>) =>
        sql`WITH done AS (
            UPDATE webhook_deliveries d SET status = 'succeeded', last_status_code = v.code, last_error = NULL,
              locked_until = NULL
            FROM jsonb_to_recordset(${
          JSON.stringify(done.map((row) => ({ id: row.id, attempts: row.attempts, code: row.statusCode })))
        }::jsonb) AS v(id uuid, attempts int, code int)
            WHERE d.id = v.id AND d.attempts = v.attempts RETURNING d.endpoint_id
          )
          UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL
          WHERE id IN (SELECT endpoint_id FROM done) AND consecutive_failures > 0`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /**
       * A failed attempt: due again at `retryAt`, or failed for good without one. The endpoint counts
       * it; past `maxFailures` in a row, or failing since before `failingBefore`, it is disabled, and
       * answered (once, by the statement that disabled it) so that its owners are told.
       */
      failed: (
        attempt: {
          id: string
          endpointId: string
          attempts: number
          statusCode: number | null
          error: string
          retryAt: Date | null
        },
        now: Date,
        maxFailures: number,
        failingBefore: Date
      ) =>
        sql`WITH attempt AS (
            UPDATE webhook_deliveries SET
              status = ${attempt.retryAt === null ? "failed" : "pending"},
              next_attempt_at = coalesce(${attempt.retryAt}, next_attempt_at),
              last_status_code = ${attempt.statusCode}, last_error = ${attempt.error.slice(0, 500)},
              locked_until = NULL
            WHERE id = ${attempt.id} AND attempts = ${attempt.attempts} RETURNING endpoint_id
          )
          UPDATE webhook_endpoints e SET
            consecutive_failures = e.consecutive_failures + 1,
            failing_since = coalesce(e.failing_since, ${now}),
            enabled = NOT (e.consecutive_failures + 1 >= ${maxFailures} OR coalesce(e.failing_since, ${now}) <= ${failingBefore}),
            disabled_reason = CASE WHEN e.consecutive_failures + 1 >= ${maxFailures}
                OR coalesce(e.failing_since, ${now}) <= ${failingBefore}
              THEN 'failing' ELSE e.disabled_reason END
          WHERE e.id = ${attempt.endpointId} AND e.enabled AND EXISTS (SELECT 1 FROM attempt)
          RETURNING e.community_id, e.url, e.enabled`.pipe(
          Effect.flatMap((rows) =>
            firstDisabled(rows.filter((row) => (row as { enabled: boolean }).enabled === false))
          ),
          Effect.orDie
        )
    }
  })
}) {}
