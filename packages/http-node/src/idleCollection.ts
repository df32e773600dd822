/**
 * How long the server is without a new request before it gives memory back. Not less: each
 * collection shrinks the heap's young generation and old-generation limits to what is live, and the
 * next burst starts with many more collections until they have grown again (measured: a burst after
 * 20 s of quiet answered 1,200-1,350 req/s with p99 560-720 ms in its first 3 s when 5 s of quiet
 * had been enough to collect, and 1,700 req/s with p99 240-330 ms when nothing was collected).
 */
export const IDLE_MS = 60_000
/** How often the server looks, which is also the time between the collections after a burst. */
export const CHECK_MS = 5_000
/**
 * Collections after each burst, one per check: V8 judges the allocation rate over its last
 * collections, so the first one after a load still sees it high and keeps the young generation.
 */
export const COLLECTIONS_AFTER_BURST = 3

export interface IdleCollection {
  /** Called at the start of every request. */
  readonly touch: () => void
  readonly stop: () => void
}

/**
 * `COLLECTIONS_AFTER_BURST` full garbage collections, one per `CHECK_MS`, once a burst of requests
 * is over (no request for `IDLE_MS`). V8 gives the young generation's pages back (up to 2 × 64 MB
 * with the binaries' semi-space flag, see main.ts) only at a collection while little is allocated,
 * and an idle server allocates nothing, so it never collects: after a load run its RSS stayed at
 * twice its size at start. Only where Node exposes `gc` (`--expose-gc`, in the binaries' shebang);
 * elsewhere it does nothing.
 */
export const idleCollection = (
  collect: (() => void) | undefined = (globalThis as { gc?: () => void }).gc
): IdleCollection => {
  if (collect === undefined) return { touch: () => undefined, stop: () => undefined }
  let requests = 0
  let seen = 0
  let quietMs = 0
  let due = 0
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests
      quietMs = 0
      due = COLLECTIONS_AFTER_BURST
      return
    }
    quietMs += CHECK_MS
    if (due > 0 && quietMs >= IDLE_MS) {
      due--
      collect()
    }
  }, CHECK_MS)
  timer.unref()
  return {
    touch: () => {
      requests++
    },
    stop: () => clearInterval(timer)
  }
}
