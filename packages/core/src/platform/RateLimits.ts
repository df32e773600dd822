import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"

/**
 * Fixed-window counters kept in the database, so that every process serving the same community
 * counts the same calls. One statement per reservation: parallel calls serialise on the key's row,
 * so at most `limit` of them pass in a window.
 */
export class RateLimits extends Effect.Service<RateLimits>()("@roda/core/RateLimits", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** Counts one call under `key`: none when it passes, else the seconds until its window ends. */
      reserve: (key: string, limit: number, windowSeconds: number) =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          const windowStart = new Date(now.getTime() - windowSeconds * 1000)
          const rows = yield* sql<{ used: number }>`INSERT INTO rate_limits (key, window_started_at, used)
            VALUES (${key}, ${now}, 1)
            ON CONFLICT (key) DO UPDATE SET
              used = CASE WHEN rate_limits.window_started_at <= ${windowStart} THEN 1 ELSE rate_limits.used + 1 END,
              window_started_at = CASE WHEN rate_limits.window_started_at <= ${windowStart} THEN ${now}
                                       ELSE rate_limits.window_started_at END
            WHERE rate_limits.window_started_at <= ${windowStart} OR rate_limits.used < ${limit}
            RETURNING used`
          if (rows.length > 0) return Option.none<number>()
          const [current] = yield* sql<{ windowStartedAt: Date }>`SELECT window_started_at FROM rate_limits
            WHERE key = ${key}`
          const endsAt = (current?.windowStartedAt.getTime() ?? now.getTime()) + windowSeconds * 1000
          return Option.some(Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)))
        }).pipe(Effect.orDie)
    }
  })
}) {}
