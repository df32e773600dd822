import { Cache, Data, Duration, Effect, Exit } from "effect"

/**
 * What the feed's statistics depend on besides the time: the community, whether status posts are
 * read, and the readable spaces (sorted ids, comma-separated). Viewers who may read the same things
 * share one entry; a narrower reader never meets the entry of a wider one, whoever asked first.
 */
export class StatsScope extends Data.Class<{
  readonly communityId: string
  readonly statusPosts: boolean
  readonly spaceIds: string
}> {
  static of(communityId: string, statusPosts: boolean, spaceIds: ReadonlyArray<string>) {
    return new StatsScope({ communityId, statusPosts, spaceIds: [...spaceIds].sort().join(",") })
  }

  get spaceIdList(): ReadonlyArray<string> {
    return this.spaceIds === "" ? [] : this.spaceIds.split(",")
  }
}

/**
 * Scopes kept per process: a few per community (visitors, members, staff, members with other
 * entitlements), the least recently used dropped beyond this.
 */
export const STATS_CACHE_CAPACITY = 1000

/**
 * `compute` as it is served: with a max age of 0 on every call; otherwise once per scope per
 * `maxAgeSeconds` (callers meanwhile, and those arriving while it runs, get that answer). A failure is
 * not kept. Uninterruptible: a caller that goes away (a closed connection) must not interrupt the
 * count the callers waiting on it share; a statement timeout still bounds it.
 */
export const servedPerScope = <A>(
  maxAgeSeconds: number,
  compute: (scope: StatsScope) => Effect.Effect<A>
): Effect.Effect<(scope: StatsScope) => Effect.Effect<A>> =>
  maxAgeSeconds === 0
    ? Effect.succeed(compute)
    : Effect.map(
      Cache.makeWith({
        capacity: STATS_CACHE_CAPACITY,
        lookup: compute,
        timeToLive: (exit) => Exit.isSuccess(exit) ? Duration.seconds(maxAgeSeconds) : Duration.zero
      }),
      (cache) => (scope: StatsScope) => Effect.uninterruptible(cache.get(scope))
    )
