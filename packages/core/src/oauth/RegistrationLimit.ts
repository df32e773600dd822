import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { DEFAULT_OAUTH_REGISTRATION_LIMIT, Options } from "../platform/Options"

const HOUR_MS = 60 * 60 * 1000
/** Rows of past hours deleted by the first registration of a new hour under some scope. */
const SWEEP_ROWS = 50

const decodeUsed = decodeRows(Schema.Struct({ used: Schema.Number }))

/**
 * Dynamic registration needs no account and every registration is a row kept for good, so it is
 * counted per clock hour, per client address and in all (`options.oauthRegistrationLimit`). The
 * counts live in the database so that every process serving it shares them; a limit of 0 is not
 * counted at all (nothing is written).
 */
export class RegistrationLimit extends Effect.Service<RegistrationLimit>()("@roda/core/OAuthRegistrationLimit", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { perAddressPerHour, totalPerHour } = (yield* Options).oauthRegistrationLimit ??
      DEFAULT_OAUTH_REGISTRATION_LIMIT

    /**
     * One atomic statement: parallel registrations serialise on the scope's row, so at most `limit`
     * get a row back in an hour.
     */
    const reserve = (scope: string, windowStart: Date, limit: number) =>
      sql`INSERT INTO oauth_registration_windows (scope, window_start, used)
        VALUES (${scope}, ${windowStart}, 1)
        ON CONFLICT (scope, window_start) DO UPDATE SET used = oauth_registration_windows.used + 1
        WHERE oauth_registration_windows.used < ${limit}
        RETURNING used`.pipe(Effect.flatMap(decodeUsed), Effect.map((rows) => rows[0]?.used))

    const release = (scope: string, windowStart: Date) =>
      sql`UPDATE oauth_registration_windows SET used = used - 1
        WHERE scope = ${scope} AND window_start = ${windowStart} AND used > 0`

    // SKIP LOCKED: two sweeps never wait on (or deadlock over) the same old rows.
    const sweep = (windowStart: Date) =>
      sql`DELETE FROM oauth_registration_windows WHERE (scope, window_start) IN (
        SELECT scope, window_start FROM oauth_registration_windows WHERE window_start < ${windowStart}
        LIMIT ${SWEEP_ROWS} FOR UPDATE SKIP LOCKED)`

    return {
      /**
       * Counts one registration from `address` (none when the adapter gave no address): none when it
       * may go on, else the seconds until the hour ends. The address is counted first, so a refused
       * address does not use up everyone's budget; refused by the total, it is given back.
       */
      reserve: (address: string | undefined) =>
        Effect.gen(function*() {
          const scopes = [
            ...(perAddressPerHour > 0 && address !== undefined
              ? [{ scope: `address:${address}`, limit: perAddressPerHour }]
              : []),
            ...(totalPerHour > 0 ? [{ scope: "all", limit: totalPerHour }] : [])
          ]
          if (scopes.length === 0) return Option.none<number>()
          const now = yield* Clock.currentTimeMillis
          const windowStart = new Date(Math.floor(now / HOUR_MS) * HOUR_MS)
          const reserved: Array<string> = []
          for (const { limit, scope } of scopes) {
            const used = yield* reserve(scope, windowStart, limit)
            if (used === undefined) {
              yield* Effect.forEach(reserved, (done) => release(done, windowStart), { discard: true })
              return Option.some(Math.max(1, Math.ceil((windowStart.getTime() + HOUR_MS - now) / 1000)))
            }
            if (used === 1) yield* sweep(windowStart)
            reserved.push(scope)
          }
          return Option.none<number>()
        }).pipe(Effect.orDie)
    }
  })
}) {}
