import type { SqlClient } from "@effect/sql"
import { Effect, Exit, Option, Random } from "effect"
import { Conflict, conflict, failure, fieldError, InvalidInput, type Kind } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { IDEMPOTENCY_KEY_HOURS } from "../../domain/Idempotency"
import { Messages } from "../../domain/Messages"
import type { Message } from "../../domain/Text"
import { sha256Hex } from "../../platform/bytes"
import { transactional } from "../../sql/transaction"
import { subscriptionMessages as M } from "./messages"
import type { SubscriptionsRepo } from "./Repo"

type Repo = Effect.Effect.Success<typeof SubscriptionsRepo>

const keyPattern = /^[\x21-\x7e]{1,255}$/
/** A request holding the same key is waited for this many rounds of `KEY_WAIT_MS` (30 s). */
const KEY_WAIT_ROUNDS = 600
const KEY_WAIT_MS = "50 millis"
/** A key left in flight this long was left by a stopped process: it may be claimed again. */
const KEY_STALE_MS = 10 * 60 * 1000
const KEY_LIFE_MS = IDEMPOTENCY_KEY_HOURS * 60 * 60 * 1000

/**
 * `Idempotency-Key` for the subscription routes that charge or refund, which run outside the
 * per-request transaction (the gateway is asked between transactions of their own): the key is
 * claimed (per community and account) in a short transaction before the work, the 2xx answer stored
 * with it after, and a refused request lets it go (it may be retried with the same key). The same
 * key with another request is a 409; a request arriving while the first is still running waits for
 * its answer (up to 30 s, then 409). A retry never charges twice: the key replays the answer, and a
 * billing at the gateway (`charging`) is never charged again meanwhile. As on every other route, an
 * answer is replayed for `IDEMPOTENCY_KEY_HOURS` (24): then the key may be claimed by a new request,
 * and now and then expired keys are swept (a few at a time).
 */
export const makeKeyed = (sql: SqlClient.SqlClient, repo: Repo) => {
  const tx = transactional(sql)
  return <A, E, R>(
    member: Member,
    key: string | undefined,
    request: unknown,
    run: Effect.Effect<A, E, R>
  ) =>
    Effect.gen(function*() {
      if (key === undefined) return yield* run
      const keyError = <K extends Kind, Code extends string>(kind: K, text: Message<Code>) =>
        failure(kind, text, [fieldError("Idempotency-Key", text, "headers")])
      if (!keyPattern.test(key)) return yield* Effect.fail(keyError(InvalidInput, Messages.idempotencyKeyInvalid))
      const scope = { communityId: member.communityId, caller: `account:${member.account.id}`, key }
      const fingerprint = sha256Hex(JSON.stringify(request))
      for (let wait = 0;; wait++) {
        const at = new Date(yield* Effect.clockWith((clock) => clock.currentTimeMillis))
        const expiredBefore = new Date(at.getTime() - KEY_LIFE_MS)
        const stored = yield* tx(repo.claimKey({ ...scope, fingerprint, at, expiredBefore }))
        if (Option.isNone(stored)) {
          if ((yield* Random.nextIntBetween(0, 100)) === 0) yield* tx(repo.sweepKeys(expiredBefore))
          break
        }
        if (stored.value.fingerprint !== fingerprint) {
          return yield* Effect.fail(keyError(Conflict, Messages.idempotencyKeyReused))
        }
        if (stored.value.answer !== null) return stored.value.answer as A
        if (stored.value.createdAt.getTime() <= at.getTime() - KEY_STALE_MS) {
          yield* tx(repo.dropKey(scope.communityId, scope.caller, key, stored.value.createdAt))
          continue
        }
        if (wait >= KEY_WAIT_ROUNDS) {
          return yield* Effect.fail(
            conflict(M.idempotencyInFlight, [fieldError("Idempotency-Key", M.idempotencyInFlight, "headers")])
          )
        }
        yield* Effect.sleep(KEY_WAIT_MS)
      }
      const exit = yield* Effect.exit(run)
      if (Exit.isSuccess(exit)) {
        yield* tx(repo.storeKeyAnswer(scope.communityId, scope.caller, key, exit.value))
      } else {
        yield* tx(repo.dropKey(scope.communityId, scope.caller, key))
      }
      return yield* exit
    })
}
