/** How long the server is without a new request before it collects. */
export const IDLE_MS = 5_000
/**
 * Collections after each burst, one per idle interval: V8 judges the allocation rate over its last
 * collections, so the first one after a load still sees it high and keeps the young generation.
 */
export const COLLECTIONS_AFTER_BURST = 3

export interface IdleCollection {
  /** Called at the start of every request. */
  readonly touch: () => void
  readonly stop: () => void
}

/**
 * `COLLECTIONS_AFTER_BURST` full garbage collections, one per `IDLE_MS`, once a burst of requests is
 * over (no request for a whole `IDLE_MS`). V8 gives the young generation's pages back (up to
 * 2 × 64 MB with the binaries' semi-space flag, see main.ts) only at a collection while little is
 * allocated, and an idle server allocates nothing, so it never collects: after a load run its RSS
 * stayed at twice its size at start. Only where Node exposes `gc` (`--expose-gc`, in the binaries'
 * shebang); elsewhere it does nothing.
 */
export const idleCollection = (
  collect: (() => void) | undefined = (globalThis as { gc?: () => void }).gc
): IdleCollection => {
  if (collect === undefined) return { touch: () => undefined, stop: () => undefined }
  let requests = 0
  let seen = 0
  let due = 0
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests
      due = COLLECTIONS_AFTER_BURST
    } else if (due > 0) {
      due--
      collect()
    }
  }, IDLE_MS)
  timer.unref()
  return {
    touch: () => {
      requests++
    },
    stop: () => clearInterval(timer)
  }
}
