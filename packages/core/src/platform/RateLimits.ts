import { SqlClient } from "@effect/sql"
import { Clock, Effect, FiberRef, Random, Schema } from "effect"
import { failure, RateLimited } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { decodeRows } from "../domain/Rows"
import { Options } from "./Options"
import { type RateLimitName, type RateLimitSetting, resolveRateLimits } from "./rateLimitSettings"

/** A counter of a limit, as an action counted it: what a stored answer remembers to show it again. */
export interface CountedLimit {
  /** The policy's name in the headers (the limit's name; `slowMode`: a community's own setting). */
  readonly policy: RateLimitName | "slowMode"
  /** The counter's row in `rate_limit_counters`. */
  readonly bucket: string
  readonly key: string
  readonly limit: number
  readonly windowSeconds: number
}

/** One counter after a counted action. */
export interface RateLimitState extends CountedLimit {
  /** Actions left in the window (0 once refused). */
  readonly remaining: number
  /** Seconds until the window ends and the count starts again (at least 1). */
  readonly resetSeconds: number
  /** The counted action is within the limit. */
  readonly allowed: boolean
}

/**
 * The limit the current request's answer shows (`RateLimit-Policy`, `RateLimit`): set by `check` and
 * `enforce` in the request's fiber, read by `http/rateLimited.ts` when it writes the answer. Services
 * set it too (posting), so that the MCP tools that use them are limited the same way.
 */
export const ShownRateLimit = FiberRef.unsafeMake<RateLimitState | undefined>(undefined)

/** The IETF httpapi rate-limit headers of `state`. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  "ratelimit-policy": `"${state.policy}";q=${state.limit};w=${state.windowSeconds}`,
  ratelimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`
})

/** One in this many counts also sweeps windows that ended (up to `SWEEP_ROWS` rows). */
const SWEEP_ONE_IN = 32
const SWEEP_ROWS = 200

const decodeCounters = decodeRows(Schema.Struct({ used: Schema.Number, resetsAt: Schema.DateFromSelf }))

/**
 * The limits on abuse (platform.md), counted in `rate_limit_counters` so that every process serving
 * the database shares them. A window is fixed and starts at a key's first counted action: it holds at
 * most `limit` actions and ends `windowSeconds` later (exact `RateLimit` resets, one row per key).
 * One statement per count: an upsert that starts a new window when the last one ended, and answers
 * the count and the window's end; parallel counts of one key serialise on its row.
 */
export class RateLimits extends Effect.Service<RateLimits>()("@roda/core/RateLimits", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const limits = resolveRateLimits((yield* Options).rateLimits)

    const sweep = (now: Date) =>
      sql`DELETE FROM rate_limit_counters WHERE (bucket, key) IN (
        SELECT bucket, key FROM rate_limit_counters WHERE resets_at <= ${now}
        LIMIT ${SWEEP_ROWS} FOR UPDATE SKIP LOCKED)`

    /** Counts one action of `key` in `bucket`; `limit` > 0. */
    const count = (
      policy: RateLimitName | "slowMode",
      bucket: string,
      key: string,
      limit: number,
      windowSeconds: number
    ) =>
      Effect.gen(function*() {
        const nowMs = yield* Clock.currentTimeMillis
        const now = new Date(nowMs)
        const rows = yield* sql`
          INSERT INTO rate_limit_counters AS c (bucket, key, used, resets_at)
          VALUES (${bucket}, ${key}, 1, ${new Date(nowMs + windowSeconds * 1000)})
          ON CONFLICT (bucket, key) DO UPDATE SET
            used = CASE WHEN c.resets_at <= ${now} THEN 1 ELSE least(c.used + 1, ${limit + 1}) END,
            resets_at = CASE WHEN c.resets_at <= ${now} THEN EXCLUDED.resets_at ELSE c.resets_at END
          RETURNING used, resets_at`.pipe(Effect.flatMap(decodeCounters))
        if ((yield* Random.nextIntBetween(0, SWEEP_ONE_IN)) === 0) yield* sweep(now)
        const used = rows[0]!.used
        const resetsAt = new Date(rows[0]!.resetsAt).getTime()
        return {
          policy,
          bucket,
          key,
          limit,
          windowSeconds,
          remaining: Math.max(0, limit - used),
          resetSeconds: Math.max(1, Math.ceil((resetsAt - nowMs) / 1000)),
          allowed: used <= limit
        } satisfies RateLimitState
      }).pipe(Effect.orDie)

    const counted = (name: RateLimitName, key: string, setting: RateLimitSetting, limit: number, bucket: string) =>
      limit > 0 ? Effect.asSome(count(name, bucket, key, limit, setting.windowSeconds)) : Effect.succeedNone

    const show = (state: RateLimitState) => Effect.as(FiberRef.set(ShownRateLimit, state), state)

    /** 429 with `Retry-After` (the window's end) and the limit's headers. */
    const refuse = (state: RateLimitState) =>
      Effect.fail(
        failure(RateLimited, Messages.rateLimited, undefined, {
          "retry-after": String(state.resetSeconds),
          ...rateLimitHeaders(state)
        })
      )

    /** The state of a limit that is on, else undefined; shown in the answer's headers. */
    const check = (name: RateLimitName, key: string) =>
      Effect.flatMap(
        counted(name, key, limits[name], limits[name].limit, name),
        (state) => state._tag === "Some" ? show(state.value) : Effect.succeed(undefined)
      )

    /** `check`, failing with 429 (`Retry-After` and the headers) once the limit is reached. */
    const enforce = (name: RateLimitName, key: string) =>
      Effect.flatMap(check(name, key), (state) => state === undefined || state.allowed ? Effect.void : refuse(state))

    return {
      check,
      enforce,
      /** `posting`: posts and comments of one account in one community (MCP tools included). */
      posting: (communityId: string, accountId: string) => enforce("posting", `${communityId}:${accountId}`),
      /**
       * A community's slow mode: one post of an account in a space per `seconds` (a window from its
       * first post; 0: off). Refused: 429 with `Retry-After` and this limit's headers; an allowed post
       * is not shown (the route's headers stay `posting`'s).
       */
      slowMode: (communityId: string, spaceId: string, accountId: string, seconds: number) =>
        seconds > 0
          ? Effect.flatMap(
            count("slowMode", "slowMode", `${communityId}:${spaceId}:${accountId}`, 1, seconds),
            (state) => state.allowed ? Effect.void : refuse(state)
          )
          : Effect.void,
      /** `apiKey`: requests made with one API key, on every route and MCP tool. */
      apiKey: (keyId: string) => enforce("apiKey", keyId),
      /**
       * `recovery`: the client's limit is enforced and shown (429 when reached), then the target's is
       * counted silently (never shown: it would tell the caller about someone else's address). True
       * when the e-mail may be sent.
       */
      recovery: (client: string, target: string) =>
        Effect.gen(function*() {
          const setting = limits.recovery
          const byClient = yield* counted("recovery", client, setting, setting.clientLimit ?? 0, "recovery:client")
          if (byClient._tag === "Some") {
            yield* show(byClient.value)
            if (!byClient.value.allowed) return yield* refuse(byClient.value)
          }
          const byTarget = yield* counted("recovery", target, setting, setting.limit, "recovery")
          return byTarget._tag === "None" || byTarget.value.allowed
        }),
      /**
       * The counter's state now, without counting (an `Idempotency-Key` replay shows the limit its first
       * answer counted): a window that ended, or was swept, is whole again.
       */
      current: (counted: CountedLimit) =>
        Effect.gen(function*() {
          const nowMs = yield* Clock.currentTimeMillis
          const rows = yield* sql`SELECT used, resets_at FROM rate_limit_counters
            WHERE bucket = ${counted.bucket} AND key = ${counted.key} AND resets_at > ${new Date(nowMs)}`.pipe(
            Effect.flatMap(decodeCounters)
          )
          const row = rows[0]
          const used = row?.used ?? 0
          return {
            ...counted,
            remaining: Math.max(0, counted.limit - used),
            resetSeconds: row === undefined
              ? counted.windowSeconds
              : Math.max(1, Math.ceil((new Date(row.resetsAt).getTime() - nowMs) / 1000)),
            allowed: used <= counted.limit
          } satisfies RateLimitState
        }).pipe(Effect.orDie),
      /** Deletes counters of windows that ended (up to a few hundred); answers how many. */
      sweep: Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = yield* sql`DELETE FROM rate_limit_counters WHERE (bucket, key) IN (
          SELECT bucket, key FROM rate_limit_counters WHERE resets_at <= ${now} LIMIT ${SWEEP_ROWS})
          RETURNING key`
        return rows.length
      }).pipe(Effect.orDie)
    }
  })
}) {}
