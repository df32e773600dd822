import { Clock, Effect, Option } from "effect"
import { Schema } from "effect"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { managerRoles } from "../domain/Role"
import { randomBytes, sha256Hex, toBase64Url } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { ApiKeyMessages as M } from "./messages"
import { type ApiKeyRow, ApiKeysRepo } from "./Repo"
import type { ApiKeyScope } from "./scopes"

const view = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as ReadonlyArray<ApiKeyScope>,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null
})

const Cursor = Schema.Tuple(Uuid)

/** A new key: `rk_` and 32 random bytes in base64url (43 characters). */
const newKey = () => `rk_${toBase64Url(randomBytes(32))}`

export interface NewApiKeyInput {
  readonly name: string
  readonly scopes: ReadonlyArray<ApiKeyScope>
  readonly expiresAt?: string | undefined
}

/** The community's API keys: made, listed and revoked by its owners and admins. */
export class ApiKeys extends Effect.Service<ApiKeys>()("@roda/core/ApiKeys", {
  effect: Effect.gen(function*() {
    const repo = yield* ApiKeysRepo
    const ids = yield* Ids

    const create = traced("ApiKeys.create")(function*(member: Member, input: NewApiKeyInput) {
      yield* requireRole(member, managerRoles)
      const now = new Date(yield* Clock.currentTimeMillis)
      const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt)
      if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
        return yield* Effect.fail(invalidField("expiresAt", M.expiresAtPast))
      }
      const scopes = [...new Set(input.scopes)]
      const key = newKey()
      const id = yield* ids.next
      yield* repo.insert({
        id,
        communityId: member.communityId,
        name: input.name,
        prefix: key.slice(0, 8),
        keyHash: sha256Hex(key),
        scopes,
        createdBy: member.account.id,
        createdAt: now,
        expiresAt
      })
      const row: ApiKeyRow = {
        id,
        communityId: member.communityId,
        name: input.name,
        prefix: key.slice(0, 8),
        scopes,
        createdBy: member.account.id,
        createdAt: now,
        lastUsedAt: null,
        expiresAt,
        revokedAt: null
      }
      return { ...view(row), key }
    })

    const list = traced("ApiKeys.list")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, managerRoles)
      return yield* paginate(
        query,
        Cursor,
        (after, limit) => Effect.map(repo.list(member.communityId, after?.[0], limit + 1), (rows) => rows.map(view)),
        (row) => [row.id]
      )
    })

    const revoke = traced("ApiKeys.revoke")(function*(member: Member, id: string) {
      yield* requireRole(member, managerRoles)
      const revoked = yield* repo.revoke(member.communityId, id, new Date(yield* Clock.currentTimeMillis))
      if (Option.isNone(revoked)) return yield* Effect.fail(notFound(M.apiKeyNotFound))
      return view(revoked.value)
    })

    return { create, list, revoke }
  })
}) {}
