import { HttpApiError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Data, Effect, Exit, FiberRef, Option, Ref, Schema } from "effect"
import { AppError, fieldError } from "../domain/AppError"
import { IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_SWEEP_EVERY as SWEEP_EVERY } from "../domain/Idempotency"
import { isUuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { decodeRows } from "../domain/Rows"
import type { Text } from "../domain/Text"
import { collectingAfterCommit } from "../platform/AfterCommit"
import { sha256Hex } from "../platform/bytes"
import { type CountedLimit, rateLimitHeaders, RateLimits, ShownRateLimit } from "../platform/RateLimits"
import { RATE_LIMIT_NAMES } from "../platform/rateLimitSettings"
import { Tokens } from "../platform/Tokens"

/**
 * POSTs left alone: checkout has its own transactions and `Idempotency-Key` (it calls the payment
 * gateway); sign-in creates nothing, and would otherwise hold a connection (on the embedded
 * database, the only one) while it hashes the password.
 */
const untouched = (path: string) =>
  path === "/api/auth/login" || path === "/api/checkout" || path.startsWith("/api/checkout/") ||
  // a refund asks the gateway between two transactions of its own, with its own Idempotency-Key
  /^\/api\/manage\/purchases\/[^/]+\/refund$/.test(path) ||
  // subscription charges and refunds ask the gateway between transactions of their own (same key handling)
  /^\/api\/subscriptions\/[^/]+\/(pay-now|change-tier|add-ons)$/.test(path) ||
  /^\/api\/manage\/subscriptions\/[^/]+\/cancel$/.test(path)

/**
 * POSTs whose work is all or nothing by itself (one statement, or a transaction of their own) and whose
 * reads before it change nothing: without an `Idempotency-Key` they skip the request transaction and
 * its two round trips (BEGIN, COMMIT). The statement's own commit still comes before the answer.
 */
const selfContained = (path: string) => path === "/api/status"

const keyPattern = /^[\x21-\x7e]{1,255}$/

type Answer = Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>

/** A request whose work must not be kept: its exit is handed back after the rollback. */
class Rollback extends Data.TaggedError("Rollback")<{ readonly exit: Answer }> {}

const clientError = (error: unknown) =>
  error instanceof AppError ? error.status < 500 : error instanceof HttpApiError.HttpApiDecodeError

/**
 * Kept (committed): a response below 500, and a failure made only of client errors (e.g. a wrong
 * password still counts the attempt). Rolled back: defects, interruptions, server errors.
 */
const keeps = (exit: Answer) => {
  if (Exit.isSuccess(exit)) return exit.value.status < 500
  if (Cause.isInterrupted(exit.cause) || Cause.isDie(exit.cause)) return false
  const failures = [...Cause.failures(exit.cause)]
  return failures.length > 0 && failures.every(clientError)
}

const sha256 = sha256Hex

const keyError = (status: number, text: Text) =>
  new AppError({ status, text, errors: [fieldError("Idempotency-Key", text, "headers")] })

const Stored = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.NullOr(Schema.Number),
  body: Schema.NullOr(Schema.String),
  /** The limit on abuse the first request counted (`ShownRateLimit`), if any. */
  rateLimit: Schema.NullOr(Schema.Struct({
    policy: Schema.Literal(...RATE_LIMIT_NAMES),
    bucket: Schema.String,
    key: Schema.String,
    limit: Schema.Number,
    windowSeconds: Schema.Number
  }))
})
type Stored = typeof Stored.Type

const decodeStored = decodeRows(Stored)

/** What a stored answer keeps of the limit its request counted (not the counts: a replay shows them as they are then). */
const countedOf = ({ bucket, key, limit, policy, windowSeconds }: CountedLimit): CountedLimit => ({
  policy,
  bucket,
  key,
  limit,
  windowSeconds
})

/**
 * Every POST (but those `untouched`, and those `selfContained` without a key) runs in one
 * transaction, from the first middleware to the answer: the answer is built before COMMIT, and COMMIT
 * is the request's last database act, so a 201 is never answered for work that was not kept, and a
 * lost connection before COMMIT keeps nothing. Nested `transactional` calls become savepoints;
 * `atomic` ones join it.
 *
 * With an `Idempotency-Key` header the key is claimed in that same transaction (scoped to the
 * community and the caller): the write and the stored 2xx answer commit together; the same key with
 * the same request replays the stored answer (`Idempotent-Replayed: true`); with another request it
 * is a 409; a second request with a key in flight waits on the key's row, then replays.
 */
export const makeRequestTransaction = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tokens = yield* Tokens
  const rateLimits = yield* RateLimits
  const claims = yield* Ref.make(0)

  const callerOf = (request: HttpServerRequest.HttpServerRequest) => {
    const match = /^Bearer ([^\s]+)$/.exec(request.headers["authorization"] ?? "")
    if (!match) return Effect.succeed("anonymous")
    return Effect.map(tokens.verify(match[1]!), Option.match({ onNone: () => "anonymous", onSome: (c) => c.accountId }))
  }

  /**
   * Claims the key (new, expired, or left by a request that did not answer 2xx); else the stored row.
   * On every `SWEEP_EVERY`th claim of a process (`sweep`) the same statement also deletes up to 100
   * expired keys of others: a request with a key always costs the same number of statements.
   */
  const claim = (scope: string, caller: string, key: string, fingerprint: string, sweep: boolean) =>
    Effect.gen(function*() {
      const swept = sweep
        ? sql`WITH swept AS (
            DELETE FROM request_idempotency_keys WHERE ctid IN (
              SELECT ctid FROM request_idempotency_keys
              WHERE expires_at <= now() AND NOT (scope = ${scope} AND caller = ${caller} AND key = ${key})
              LIMIT 100 FOR UPDATE SKIP LOCKED))`
        : sql``
      const claimed = yield* sql`${swept}
        INSERT INTO request_idempotency_keys (scope, caller, key, fingerprint, expires_at)
        VALUES (${scope}, ${caller}, ${key}, ${fingerprint}, now() + make_interval(hours => ${IDEMPOTENCY_KEY_HOURS}))
        ON CONFLICT (scope, caller, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, status = NULL, body = NULL,
            created_at = now(), expires_at = EXCLUDED.expires_at
          WHERE request_idempotency_keys.status IS NULL OR request_idempotency_keys.expires_at <= now()
        RETURNING key`
      if (claimed.length > 0) return Option.none<Stored>()
      const rows = yield* sql`
        SELECT fingerprint, status, body, rate_limit FROM request_idempotency_keys
        WHERE scope = ${scope} AND caller = ${caller} AND key = ${key}`.pipe(Effect.flatMap(decodeStored))
      return Option.fromNullable(rows[0])
    })

  const store = (
    scope: string,
    caller: string,
    key: string,
    answer: { status: number; body: string; rateLimit: CountedLimit | undefined }
  ) =>
    sql`UPDATE request_idempotency_keys SET status = ${answer.status}, body = ${answer.body},
        rate_limit = ${answer.rateLimit === undefined ? null : JSON.stringify(countedOf(answer.rateLimit))}::jsonb
      WHERE scope = ${scope} AND caller = ${caller} AND key = ${key}`

  /** A replay carries the current state of the limit the first answer counted (platform.md "Limits on abuse"). */
  const replayHeaders = (stored: Stored) =>
    stored.rateLimit === null
      ? Effect.succeed({})
      : Effect.map(rateLimits.current(stored.rateLimit), rateLimitHeaders)

  const withKey = <E, R>(
    app: HttpApp.Default<E, R>,
    request: HttpServerRequest.HttpServerRequest,
    key: string
  ) =>
    Effect.gen(function*() {
      if (!keyPattern.test(key)) return Exit.fail(keyError(400, Messages.idempotencyKeyInvalid)) as Answer
      const community = request.headers["x-communityid"]?.trim().toLowerCase() ?? ""
      const scope = isUuid(community) ? community : "-"
      const caller = yield* callerOf(request)
      const body = yield* Effect.orElseSucceed(request.text, () => "")
      const path = new URL(request.url, "http://roda.local")
      const fingerprint = sha256(
        [request.method, path.pathname + path.search, request.headers["x-profileid"] ?? "", body].join("\n")
      )
      const sweep = (yield* Ref.updateAndGet(claims, (n) => n + 1)) % SWEEP_EVERY === 0
      const stored = yield* claim(scope, caller, key, fingerprint, sweep)
      if (Option.isSome(stored)) {
        // (A row without an answer was claimed above; `status` is set here.)
        if (stored.value.fingerprint !== fingerprint || stored.value.status === null) {
          return Exit.fail(keyError(409, Messages.idempotencyKeyReused)) as Answer
        }
        const limitHeaders = yield* replayHeaders(stored.value)
        return Exit.succeed(
          HttpServerResponse.text(stored.value.body ?? "", {
            status: stored.value.status,
            contentType: "application/json",
            headers: { ...limitHeaders, "idempotent-replayed": "true" }
          })
        )
      }
      yield* FiberRef.set(ShownRateLimit, undefined)
      const exit: Answer = yield* Effect.exit(app)
      if (Exit.isSuccess(exit) && exit.value.status >= 200 && exit.value.status < 300) {
        const answer = exit.value.body
        const text = answer._tag === "Uint8Array"
          ? new TextDecoder().decode(answer.body)
          : answer._tag === "Empty"
          ? ""
          : undefined
        // Only bodies held in memory can be stored (every JSON answer is one).
        if (text !== undefined) {
          const rateLimit = yield* FiberRef.get(ShownRateLimit)
          yield* store(scope, caller, key, { status: exit.value.status, body: text, rateLimit })
        }
      }
      return exit
    })

  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<unknown, R> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      if (request.method !== "POST") return app
      const path = new URL(request.url, "http://roda.local").pathname
      if (untouched(path)) return app
      const key = request.headers["idempotency-key"]
      if (key === undefined && selfContained(path)) return app
      const run: Effect.Effect<Answer, SqlError, R | HttpServerRequest.HttpServerRequest> = key === undefined
        ? Effect.exit(app)
        : withKey(app, request, key)
      return collectingAfterCommit(sql.withTransaction(
        Effect.flatMap(run, (exit) => keeps(exit) ? Effect.succeed(exit) : Effect.fail(new Rollback({ exit })))
      )).pipe(
        Effect.catchTag("Rollback", (rollback) => Effect.succeed(rollback.exit)),
        Effect.flatMap((exit) => exit)
      )
    })
})
