import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Context, Effect, Layer, Queue, type Scope, Stream } from "effect"

/** The channel of the wake-ups on PostgreSQL (`pg_notify` / `LISTEN`). */
export const SIGNAL_CHANNEL = "roda_notifications"

/** Recipients named in one signal at most; a larger batch wakes every stream of the community. */
const MAX_NAMED = 100

/** New notifications for these profiles of a community; `null`: any of its members. */
export interface Signal {
  readonly communityId: string
  readonly profileIds: ReadonlyArray<string> | null
}

/**
 * Wake-ups of the open notification streams (contract). Writers `publish` after writing, in their
 * transaction; a stream `subscribe`s and reads its inbox on each wake-up, so an idle stream costs no
 * statement. A wake-up carries no data: a spurious one costs a read, never a wrong item.
 */
export class NotificationSignals extends Context.Tag("@roda/core/NotificationSignals")<NotificationSignals, {
  readonly publish: (communityId: string, profileIds: ReadonlyArray<string> | null) => Effect.Effect<void>
  /**
   * The signal as an SQL expression for the writer's own statement (`SELECT … pg_notify(…)`), so that
   * it costs no statement of its own; undefined where signals are not SQL (then `publish` after).
   */
  readonly inStatement: (communityId: string, profileIds: ReadonlyArray<string> | null) => Fragment | undefined
  /**
   * `inStatement` for recipients only the writer's statement knows (`recipients`: a query of one uuid
   * column, e.g. over its `RETURNING` rows): an expression that names them in signals of at most 100
   * each, so a fan-out's batch wakes its own recipients' streams, not every stream of the community.
   */
  readonly recipientsInStatement: (communityId: string, recipients: Fragment) => Fragment | undefined
  /** Emits once as soon as the subscription is registered, then once per (coalesced) signal. */
  readonly subscribe: (communityId: string, profileId: string) => Stream.Stream<void>
  /** Streams subscribed in this process. */
  readonly subscribers: Effect.Effect<number>
}>() {}

/** A signal as the text of a `pg_notify` payload (under PostgreSQL's 8,000 bytes). */
export const encodeSignal = (communityId: string, profileIds: ReadonlyArray<string> | null): string =>
  JSON.stringify({ c: communityId, p: profileIds === null || profileIds.length > MAX_NAMED ? null : profileIds })

export const decodeSignal = (payload: string): Signal | undefined => {
  try {
    const value = JSON.parse(payload) as { c?: unknown; p?: unknown }
    if (typeof value.c !== "string") return undefined
    const ids = Array.isArray(value.p) ? value.p.filter((id): id is string => typeof id === "string") : null
    return { communityId: value.c, profileIds: ids }
  } catch {
    return undefined
  }
}

/** The streams of this process by community and profile: delivers a signal to those it names. */
export const makeSignalHub = () => {
  const communities = new Map<string, Map<string, Set<Queue.Queue<void>>>>()
  let count = 0
  const wake = (queues: Set<Queue.Queue<void>> | undefined) => {
    if (queues) { for (const queue of queues) queue.unsafeOffer(undefined) }
  }
  const deliver = (signal: Signal): void => {
    const profiles = communities.get(signal.communityId)
    if (!profiles) return
    if (signal.profileIds === null) { for (const queues of profiles.values()) wake(queues) }
    else for (const id of signal.profileIds) wake(profiles.get(id))
  }
  const deliverAll = (): void => {
    for (const profiles of communities.values()) for (const queues of profiles.values()) wake(queues)
  }
  const add = (communityId: string, profileId: string, queue: Queue.Queue<void>) =>
    Effect.sync(() => {
      const profiles = communities.get(communityId) ?? new Map<string, Set<Queue.Queue<void>>>()
      communities.set(communityId, profiles)
      const queues = profiles.get(profileId) ?? new Set()
      profiles.set(profileId, queues)
      queues.add(queue)
      count++
    })
  const remove = (communityId: string, profileId: string, queue: Queue.Queue<void>) =>
    Effect.sync(() => {
      const profiles = communities.get(communityId)
      const queues = profiles?.get(profileId)
      if (!profiles || !queues?.delete(queue)) return
      count--
      if (queues.size === 0) profiles.delete(profileId)
      if (profiles.size === 0) communities.delete(communityId)
    })
  // A sliding queue of one: wake-ups that arrive while the stream reads are coalesced into one.
  const subscribe = (communityId: string, profileId: string): Stream.Stream<void> =>
    Stream.unwrapScoped(Effect.gen(function*() {
      const queue = yield* Queue.sliding<void>(1)
      yield* Effect.acquireRelease(add(communityId, profileId, queue), () => remove(communityId, profileId, queue))
      queue.unsafeOffer(undefined)
      return Stream.fromQueue(queue)
    }))
  return { deliver, deliverAll, subscribe, subscribers: Effect.sync(() => count) }
}

/**
 * Signals within this process, for a database of one session (PGlite): a stream's read after a
 * wake-up waits while the writing transaction holds the session, so it sees the rows once committed
 * (and nothing, harmlessly, after a rollback). Costs no statement.
 */
export const inProcessSignals: Layer.Layer<NotificationSignals> = Layer.sync(NotificationSignals, () => {
  const hub = makeSignalHub()
  return NotificationSignals.of({
    publish: (communityId, profileIds) => Effect.sync(() => hub.deliver({ communityId, profileIds })),
    inStatement: () => undefined,
    recipientsInStatement: () => undefined,
    subscribe: hub.subscribe,
    subscribers: hub.subscribers
  })
})

/**
 * `pg_notify` in the writer's transaction (PostgreSQL sends it at COMMIT, and only if it commits): in
 * the writer's own statement (`inStatement`), or one statement per write. `listen` is where the process hears the channel (one connection, `LISTEN`) and
 * hands what it hears to the hub (`*`: wake every stream, e.g. after it could not hear for a while).
 */
export const databaseSignals = (
  listen: (hear: (payload: string) => void) => Effect.Effect<void, never, Scope.Scope>
): Layer.Layer<NotificationSignals, never, SqlClient.SqlClient> =>
  Layer.scoped(
    NotificationSignals,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const hub = makeSignalHub()
      yield* listen((payload) => {
        if (payload === "*") return hub.deliverAll()
        const signal = decodeSignal(payload)
        if (signal) hub.deliver(signal)
      })
      const notifyOf = (communityId: string, profileIds: ReadonlyArray<string> | null) =>
        sql`pg_notify(${SIGNAL_CHANNEL}, ${encodeSignal(communityId, profileIds)})`
      return NotificationSignals.of({
        publish: (communityId, profileIds) =>
          profileIds !== null && profileIds.length === 0
            ? Effect.void
            : sql`SELECT ${notifyOf(communityId, profileIds)}`.pipe(Effect.asVoid, Effect.orDie),
        inStatement: notifyOf,
        // pg_notify is volatile: the planner keeps each chunk's call although `count(*)` reads none
        recipientsInStatement: (communityId, recipients) =>
          sql`(SELECT count(*) FROM (
            SELECT pg_notify(${SIGNAL_CHANNEL}, json_build_object('c', ${communityId}::text, 'p', json_agg(named.id))::text)
            FROM (SELECT q.id, (row_number() OVER () - 1) / ${MAX_NAMED} AS chunk FROM (${recipients}) AS q(id)) named
            GROUP BY named.chunk
          ) sent)`,
        subscribe: hub.subscribe,
        subscribers: hub.subscribers
      })
    })
  )
