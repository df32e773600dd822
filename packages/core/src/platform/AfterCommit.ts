import { Effect, FiberRef } from "effect"

/**
 * Work that must wait for the commit of the transaction it was asked in: waking this process's job
 * runner for a job the transaction queued (woken before the commit, the runner finds nothing yet and
 * sleeps until its next poll). Only signals of this process belong here: nothing durable (that is
 * written in the transaction: outbox, jobs) and nothing that may fail.
 */
const pending = FiberRef.unsafeMake<Array<Effect.Effect<void>> | undefined>(undefined)

/** Runs `signal` after the current outermost transaction commits; at once outside one. Dropped on rollback. */
export const afterCommit = (signal: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(
    FiberRef.get(pending),
    (list) => list === undefined ? signal : Effect.sync(() => void list.push(signal))
  )

/**
 * Runs `transaction` (an outermost transaction: the commit happens when it succeeds) collecting the
 * `afterCommit` signals asked inside it, and runs them once it succeeded.
 */
export const collectingAfterCommit = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const list: Array<Effect.Effect<void>> = []
    return transaction.pipe(
      Effect.locally(pending, list),
      Effect.tap(() => list.length === 0 ? Effect.void : Effect.forEach(list, (signal) => signal, { discard: true }))
    )
  })
