import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { auditActions, auditTargetTypes } from "./OperatorAudit"

export interface NewAuditRow {
  readonly id: string
  readonly actorId: string
  readonly actorEmail: string
  readonly action: string
  readonly targetType: string
  readonly targetId: string
  readonly communityId: string | null
  /** JSON text, already stripped of secrets. */
  readonly details: string
  /** Where the operator acted from over HTTP; null from the CLI. */
  readonly clientAddress: string | null
  readonly createdAt: Date
}

/** A row as read: `details` as JSON text, so that its keys are kept as written (no camel-casing). */
const StoredAuditRow = Schema.Struct({
  id: Schema.String,
  actorId: Schema.String,
  actorEmail: Schema.String,
  action: Schema.Literal(...auditActions),
  targetType: Schema.Literal(...auditTargetTypes),
  targetId: Schema.String,
  communityId: Schema.NullOr(Schema.String),
  details: Schema.String,
  clientAddress: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})

export type AuditRow = Omit<typeof StoredAuditRow.Type, "details"> & { readonly details: unknown }

const decodeAudit = decodeRows(StoredAuditRow)

export interface AuditFilter {
  readonly action?: string | undefined
  readonly actorId?: string | undefined
  readonly communityId?: string | undefined
  readonly since?: Date | undefined
  readonly until?: Date | undefined
  /** The keyset of the last row seen: `[createdAt ISO, id]`. */
  readonly before?: readonly [string, string] | undefined
  readonly limit: number
}

/** SQL of the operator audit log (its own table only). */
export class AuditRepo extends Effect.Service<AuditRepo>()("@roda/core/AuditRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (row: NewAuditRow) =>
      sql`INSERT INTO operator_audit (id, actor_id, actor_email, action, target_type, target_id, community_id,
          details, client_address, created_at)
        VALUES (${row.id}, ${row.actorId}, ${row.actorEmail}, ${row.action}, ${row.targetType}, ${row.targetId},
          ${row.communityId}, ${row.details}::jsonb, ${row.clientAddress}, ${row.createdAt})`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const list = (filter: AuditFilter) =>
      sql`SELECT id, actor_id, actor_email, action, target_type, target_id,
          community_id, details::text AS details, client_address, created_at
        FROM operator_audit
        WHERE ${
        sql.and([
          ...(filter.action ? [sql`action = ${filter.action}`] : []),
          ...(filter.actorId ? [sql`actor_id = ${filter.actorId}`] : []),
          ...(filter.communityId ? [sql`community_id = ${filter.communityId}`] : []),
          ...(filter.since ? [sql`created_at >= ${filter.since}`] : []),
          ...(filter.until ? [sql`created_at < ${filter.until}`] : []),
          ...(filter.before ? [sql`(created_at, id) < (${new Date(filter.before[0])}, ${filter.before[1]})`] : [])
        ])
      }
        ORDER BY created_at DESC, id DESC LIMIT ${filter.limit + 1}`.pipe(
        Effect.flatMap(decodeAudit),
        Effect.map((rows) => rows.map((row): AuditRow => ({ ...row, details: JSON.parse(row.details) as unknown }))),
        Effect.orDie
      )

    return { insert, list }
  })
}) {}
