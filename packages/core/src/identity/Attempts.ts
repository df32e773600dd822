import { Clock, Effect, Option } from "effect"
import { tooManyRequests } from "../domain/AppError"
import type { RodaOptions } from "../platform/Options"
import { identityMessages as M } from "./messages"
import type { AccountsRepo } from "./Repo"

export interface AttemptKey {
  readonly key: string
  readonly limit: number
}

/**
 * Password checks limited per key and window (`login_failures`): sign-in, change-password and the
 * e-mail change share them. Each attempt is reserved before any hashing, one atomic statement per
 * key, so parallel guesses cannot all pass a check made before the first of them is counted.
 */
export const makeAttempts = (repo: AccountsRepo, options: Pick<RodaOptions, "loginWindowSeconds">) => {
  /** Reserves one attempt under every key, or gives them back and answers 429 with Retry-After. */
  const reserve = (keys: ReadonlyArray<AttemptKey>) =>
    Effect.gen(function*() {
      const at = new Date(yield* Clock.currentTimeMillis)
      const reserved: Array<string> = []
      for (const { key, limit } of keys) {
        if (yield* repo.reserveAttempt(key, limit, at, options.loginWindowSeconds)) {
          reserved.push(key)
          continue
        }
        yield* Effect.forEach(reserved, repo.releaseAttempt, { discard: true })
        const record = yield* repo.failuresOf(key)
        const retryAt = Option.match(record, {
          onNone: () => at.getTime() + 1000,
          onSome: (r) => r.windowStartedAt.getTime() + options.loginWindowSeconds * 1000
        })
        return yield* Effect.fail(tooManyRequests(M.tooManyAttempts, (retryAt - at.getTime()) / 1000))
      }
      return reserved
    })

  /** A right password: the first (strictest) key starts again, the others get their attempt back. */
  const succeeded = (keys: ReadonlyArray<AttemptKey>, reserved: ReadonlyArray<string>) =>
    Effect.zipRight(
      repo.clearFailures(keys[0]!.key),
      Effect.forEach(reserved.slice(1), repo.releaseAttempt, { discard: true })
    )

  return { reserve, succeeded }
}
