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
}

interface Waiter {
  granted: boolean
  wake: (() => void) | undefined
}

export const makeSessionLock = (): SessionLock => {
  let held = false
  // A Set iterates in insertion order: the first entry is the longest waiter.
  const waiters = new Set<Waiter>()

  const releaseUnsafe = () => {
    const next = waiters.values().next()
    if (next.done) {
      held = false
      return
    }
    // The session passes to `next` without being freed, so no later arrival can take it first.
    waiters.delete(next.value)
    next.value.granted = true
    next.value.wake?.()
  }

  const acquire = (restore: Restore): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (!held) {
        held = true
        return Effect.void
      }
      const waiter: Waiter = { granted: false, wake: undefined }
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

  return {
    acquire,
    release,
    withSession: (self) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(acquire(restore), Effect.ensuring(restore(self), release))
      )
  }
}
