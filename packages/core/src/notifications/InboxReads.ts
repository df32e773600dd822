import { Deferred, Duration, Effect } from "effect"
import type { InboxKey, NotificationsRepo } from "./Repo"
import type { NotificationRow } from "./rows"

/** How long a read waits for others to share its statement. */
const GATHER = Duration.millis(5)
/** Streams read by one statement at most. */
const MOST = 500

interface Waiting {
  readonly profileId: string
  readonly after: InboxKey
  readonly answer: Deferred.Deferred<ReadonlyArray<NotificationRow>>
}

/**
 * The open streams' reads of this process, gathered: a signal wakes many streams at once (a
 * fan-out's batch wakes every stream of the community), and those that read within a few
 * milliseconds of each other share one statement per community (`sinceMany`), each getting the rows
 * after its own last event. One stream alone waits those milliseconds and reads as before.
 */
export const makeInboxReads = (repo: NotificationsRepo, limit: number) => {
  const pending = new Map<string, Array<Waiting>>()
  let gathering = false

  const readAll = (communityId: string, waiting: ReadonlyArray<Waiting>) =>
    repo.sinceMany(communityId, waiting.map((w, k) => ({ k, profileId: w.profileId, after: w.after })), limit).pipe(
      Effect.flatMap((rows) => {
        const byStream = new Map<number, Array<NotificationRow>>()
        for (const { k, ...row } of rows) {
          const list = byStream.get(k)
          if (list === undefined) byStream.set(k, [row])
          else list.push(row)
        }
        return Effect.forEach(waiting, (w, k) => Deferred.succeed(w.answer, byStream.get(k) ?? []), { discard: true })
      }),
      Effect.catchAllCause((cause) =>
        Effect.forEach(waiting, (w) => Deferred.failCause(w.answer, cause), { discard: true })
      ),
      Effect.withSpan("NotificationStream.read", { root: true, attributes: { streams: waiting.length } })
    )

  const flush = Effect.suspend(() => {
    gathering = false
    const batches: Array<readonly [string, ReadonlyArray<Waiting>]> = []
    for (const [communityId, waiting] of pending) {
      for (let i = 0; i < waiting.length; i += MOST) batches.push([communityId, waiting.slice(i, i + MOST)])
    }
    pending.clear()
    return Effect.forEach(batches, ([communityId, waiting]) => readAll(communityId, waiting), {
      concurrency: 2,
      discard: true
    })
  })

  /** The next `limit` notifications of the profile's inbox after `after`, oldest first. */
  const read = (communityId: string, profileId: string, after: InboxKey) =>
    Effect.gen(function*() {
      const answer = yield* Deferred.make<ReadonlyArray<NotificationRow>>()
      const waiting = pending.get(communityId)
      if (waiting === undefined) pending.set(communityId, [{ profileId, after, answer }])
      else waiting.push({ profileId, after, answer })
      if (!gathering) {
        gathering = true
        yield* Effect.forkDaemon(Effect.zipRight(Effect.sleep(GATHER), flush))
      }
      return yield* Deferred.await(answer)
    })

  return { read }
}
