import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { MAX_ATTEMPTS } from "./Mailer"

/** E-mail counts of one kind (or all kinds). */
export interface MailCounts {
  /** Written to the outbox (every e-mail Roda sent on the community's behalf). */
  readonly sent: number
  /** Handed to the mail server. */
  readonly delivered: number
  /** Given up after the last delivery attempt. */
  readonly failed: number
  /** Still waiting for delivery (or for a retry). */
  readonly pending: number
}

const decodeCounts = decodeRows(
  Schema.Struct({ kind: Schema.String, sent: Schema.String, delivered: Schema.String, failed: Schema.String })
)

/**
 * What the outbox (platform/Mailer) tells about a community's e-mails: the read side of the
 * Mailer, for `GET /api/emails/stats`. One SQL aggregation over `outbox`.
 */
export class MailStats extends Context.Tag("@roda/core/MailStats")<MailStats, {
  readonly byKind: (
    communityId: string,
    window: { readonly from?: Date | undefined; readonly until?: Date | undefined }
  ) => Effect.Effect<ReadonlyArray<MailCounts & { readonly kind: string }>>
}>() {
  static readonly layer = Layer.effect(
    MailStats,
    Effect.map(SqlClient.SqlClient, (sql) => ({
      byKind: (communityId, window) =>
        sql`SELECT kind,
            count(*)::text AS sent,
            count(*) FILTER (WHERE sent_at IS NOT NULL)::text AS delivered,
            count(*) FILTER (WHERE sent_at IS NULL AND attempts >= ${MAX_ATTEMPTS})::text AS failed
          FROM outbox WHERE community_id = ${communityId}
            ${window.from ? sql`AND created_at >= ${window.from}` : sql``}
            ${window.until ? sql`AND created_at < ${window.until}` : sql``}
          GROUP BY kind ORDER BY kind`.pipe(
          Effect.flatMap(decodeCounts),
          Effect.map((rows) =>
            rows.map((row) => {
              const sent = Number(row.sent)
              const delivered = Number(row.delivered)
              const failed = Number(row.failed)
              return { kind: row.kind, sent, delivered, failed, pending: sent - delivered - failed }
            })
          ),
          Effect.orDie
        )
    }))
  )
}
