import { Clock, Effect, Option, Schema } from "effect"
import { forbidden, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { managerRoles } from "../domain/Role"
import { traced } from "../platform/traced"
import { OAuthMessages } from "./messages"
import { type ConnectionRow, OAuthRepo } from "./Repo"
import { parseScopes } from "./scopes"

const sees = (member: Member, connection: ConnectionRow) =>
  managerRoles.includes(member.role) || connection.accountId === member.account.id

const view = (row: ConnectionRow) => ({
  id: row.id,
  client: { id: row.clientId, name: row.clientName },
  clientName: row.clientName,
  accountId: row.accountId,
  scopes: parseScopes(row.scopes),
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null
})

const Cursor = Schema.Tuple(Uuid)

/** Connected assistants of a community, their diagnostics, and the MCP audit. */
export class Connections extends Effect.Service<Connections>()("@roda/core/OAuthConnections", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuthRepo

    /** The connection, if the member may see it: 404 for another community's or a revoked one. */
    const visible = (member: Member, id: string) =>
      Effect.gen(function*() {
        const found = yield* repo.connection(member.communityId, id)
        if (Option.isNone(found) || found.value.revokedAt !== null) {
          return yield* Effect.fail(notFound(OAuthMessages.connectionNotFound))
        }
        if (!sees(member, found.value)) {
          return yield* Effect.fail(forbidden(Messages.roleRequired(managerRoles, member.role)))
        }
        return found.value
      })

    const list = traced("OAuthConnections.list")(function*(member: Member, query: PageQuery) {
      return yield* paginate(
        query,
        Cursor,
        (after, limit) =>
          Effect.map(
            repo.connections(
              member.communityId,
              managerRoles.includes(member.role) ? null : member.account.id,
              after?.[0],
              limit
            ),
            (rows) => rows.map(view)
          ),
        (row) => [row.id]
      )
    })

    const disconnect = traced("OAuthConnections.disconnect")(function*(member: Member, id: string) {
      const connection = yield* visible(member, id)
      yield* repo.revoke(connection.id, "disconnected", new Date(yield* Clock.currentTimeMillis))
    })

    const diagnostics = traced("OAuthConnections.diagnostics")(function*(member: Member, id: string) {
      const connection = yield* visible(member, id)
      return {
        id: connection.id,
        protocolVersion: connection.protocolVersion,
        serverVersion: connection.serverVersion,
        tools: connection.tools ?? [],
        lastUsedAt: connection.lastUsedAt?.toISOString() ?? null,
        lastError: connection.lastError
      }
    })

    const audit = traced("OAuthConnections.audit")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, managerRoles)
      return yield* paginate(
        query,
        Cursor,
        (after, limit) =>
          Effect.map(
            repo.audit(member.communityId, after?.[0], limit),
            (rows) => rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }))
          ),
        (row) => [row.id]
      )
    })

    return { list, disconnect, diagnostics, audit }
  })
}) {}
