import { Clock, Effect, Layer, Option } from "effect"
import { AccountId, CommunityId } from "../domain/Ids"
import { sha256Hex } from "../platform/bytes"
import { outsideTransaction } from "../sql/transaction"
import { API_KEY_PATTERN, ApiKeyAccess, type ApiKeyGrant } from "./ApiKeyAccess"
import { ApiKeysRepo } from "./Repo"
import { isApiKeyScope } from "./scopes"

const MINUTE = 60_000

/** `ApiKeyAccess` over the keys' own table: one indexed read per request that sends a key. */
export const ApiKeyAccessLive = Layer.effect(
  ApiKeyAccess,
  Effect.gen(function*() {
    const repo = yield* ApiKeysRepo
    /** `lastUsedAt`, to the minute, off the request's path (as sessions are marked used). */
    const touch = (id: string, at: Date) =>
      repo.touch(id, at).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("API key not marked used", cause)),
        outsideTransaction,
        Effect.withSpan("ApiKeys.touch", { root: true }),
        Effect.forkDaemon,
        Effect.asVoid
      )
    return ApiKeyAccess.of({
      authenticate: (key) =>
        Effect.gen(function*() {
          if (!API_KEY_PATTERN.test(key)) return Option.none()
          const at = new Date(yield* Clock.currentTimeMillis)
          const found = yield* repo.live(sha256Hex(key), at)
          if (Option.isNone(found)) return Option.none()
          const row = found.value
          if (row.lastUsedAt === null || at.getTime() - row.lastUsedAt.getTime() >= MINUTE) yield* touch(row.id, at)
          return Option.some<ApiKeyGrant>({
            keyId: row.id,
            accountId: AccountId.make(row.createdBy),
            communityId: CommunityId.make(row.communityId),
            scopes: row.scopes.filter(isApiKeyScope)
          })
        }).pipe(Effect.withSpan("ApiKeyAccess.authenticate"))
    })
  })
)
