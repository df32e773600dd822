/**
 * The requests being handled, so that a stop (`dispose`, a server closing) releases the database
 * only after them. A count and the waits for none, not a collection of the requests: a Map or Set
 * churned by every request kept whole requests alive through young-generation collections (see
 * bench/README.md).
 */
export interface InFlight {
  /** How many are running. */
  readonly running: () => number
  /** Counts one more until the function returned is called (once: later calls do nothing). */
  readonly enter: () => () => void
  /** Counts one more until `work` settles. */
  readonly track: (work: Promise<unknown>) => void
  /** Resolves `true` once none is running, or `false` after `ms`. */
  readonly settled: (ms: number) => Promise<boolean>
}

export const makeInFlight = (): InFlight => {
  let running = 0
  let waiters: Array<() => void> = []
  const leave = () => {
    if (--running > 0 || waiters.length === 0) return
    const woken = waiters
    waiters = []
    for (const wake of woken) wake()
  }
  const enter = () => {
    running++
    let left = false
    return () => {
      if (left) return
      left = true
      leave()
    }
  }
  return {
    running: () => running,
    enter,
    track: (work) => {
      const done = enter()
      work.then(done, done)
    },
    settled: (ms) =>
      running === 0 ? Promise.resolve(true) : new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          resolve(true)
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== wake)
          resolve(false)
        }, ms)
        waiters.push(wake)
      })
  }
}
