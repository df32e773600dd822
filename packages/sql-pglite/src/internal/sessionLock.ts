import * as Effect from "effect/Effect"

/** `restore` of `Effect.uninterruptibleMask`. */
type Restore = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/**
 * The right to use PGlite's single session, handed to waiters in the order they came.
 *
 * Effect's semaphore is not fair: a woken waiter that finds the permit taken again (by a fiber that
 * asked meanwhile, such as the one that just released it) joins the end of the queue, so a caller
 * running statement after statement could keep the session from the others. Here a release hands
 * the session to the first waiter directly.
 *
 * A statement outside a transaction does not hold the session: the engine runs the statements it is
 * given one after another, in the order given, so such a statement only has to be given after every
 * transaction ahead of it has ended and before the next one begins (`start`). Several can then be
 * under way at once, each queued in the engine behind the one before.
 */
export interface SessionLock {
  /**
   * Waits for the session, interruptibly through `restore`; call it inside `uninterruptibleMask`
   * and register `release` right after, so no interruption can fall between the two (a session
   * taken and never released would stop the database for good).
   */
  readonly acquire: (restore: Restore) => Effect.Effect<void>
  readonly release: Effect.Effect<void>
  /** Runs `self` holding the session. */
  readonly withSession: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Calls `begin` (which hands a statement to the engine) as soon as no transaction holds the session
   * or waits ahead: at once, or from the release that lets it pass, before the session goes to the next
   * transaction; then waits for its answer (`fail` turns a rejection into the error). Interrupted
   * while waiting for its turn, it leaves the queue and `begin` is never called.
   */
  readonly start: <A, E>(begin: () => Promise<A>, fail: (cause: unknown) => E) => Effect.Effect<A, E>
}

type Waiter =
  | { readonly kind: "hold"; granted: boolean; wake: (() => void) | undefined }
  | { readonly kind: "pass"; readonly begin: () => void }

export const makeSessionLock = (): SessionLock => {
  let held = false
  // A Set iterates in insertion order: the first entry is the longest waiter.
  const waiters = new Set<Waiter>()

  const releaseUnsafe = () => {
    for (const next of waiters) {
      waiters.delete(next)
      if (next.kind === "pass") {
        next.begin()
        continue
      }
      // The session passes to `next` without being freed, so no later arrival can take it first.
      next.granted = true
      next.wake?.()
      return
    }
    held = false
  }

  const acquire = (restore: Restore): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (!held) {
        held = true
        return Effect.void
      }
      const waiter: Waiter = { kind: "hold", granted: false, wake: undefined }
      waiters.add(waiter)
      return restore(Effect.async<void>((resume) => {
        if (waiter.granted) return resume(Effect.void)
        waiter.wake = () => resume(Effect.void)
      })).pipe(
        // Interrupted while waiting: leave the queue; interrupted just as the session was handed
        // over: pass it on, or it would stay taken for good.
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            if (waiter.granted) releaseUnsafe()
            else waiters.delete(waiter)
          })
        )
      )
    })

  const release = Effect.sync(releaseUnsafe)

  const start = <A, E>(begin: () => Promise<A>, fail: (cause: unknown) => E): Effect.Effect<A, E> =>
    Effect.async<A, E>((resume) => {
      const run = () => {
        let answer: Promise<A>
        try {
          answer = begin()
        } catch (cause) {
          return resume(Effect.fail(fail(cause)))
        }
        answer.then((value) => resume(Effect.succeed(value)), (cause) => resume(Effect.fail(fail(cause))))
      }
      if (!held) return run()
      // `run` is called inside the release, synchronously, so its statement reaches the engine
      // before the next transaction's first one.
      const waiter: Waiter = { kind: "pass", begin: run }
      waiters.add(waiter)
      return Effect.sync(() => waiters.delete(waiter))
    })

  return {
    acquire,
    release,
    start,
    withSession: (self) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(acquire(restore), Effect.ensuring(restore(self), release))
      )
  }
}
