import { ConfigProvider, Effect, Exit } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { loadRodaEnvironment } from "../../node/index"
import { RodaConfigError } from "../../src/app/validateConfig"
import { movableClock } from "../limits/support"
import { expectOk } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { spans } from "../support/spans"
import { type FeedCommunity, feedCommunity, insertContent, insertStatus, minutesAgo } from "./setup"

/**
 * `GET /api/feed/stats` with the shipped default max age (60 s, `FEED_STATS_MAX_AGE_SECONDS`): counted at
 * most once a minute per community and reader scope, on a clock the tests move. Tracing on, so the
 * counts can be counted (the `Feed.statsCount` spans).
 */
const time = movableClock()
const roda = startRoda({}, { clock: time.clock, tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

type Viewer = keyof FeedCommunity["headers"]
const statsOf = async (on: Client, f: FeedCommunity, viewer: Viewer) =>
  expectOk(await on.get("/api/feed/stats", f.headers[viewer]))
const stats = (f: FeedCommunity, viewer: Viewer) => statsOf(api, f, viewer)

const counts = (names: ReadonlyArray<string>) => names.filter((name) => name === "Feed.statsCount").length

describe("GET /api/feed/stats is served from memory for up to FEED_STATS_MAX_AGE_SECONDS (default 60)", () => {
  it("answers the same figures within the max age, even after a new post, and the new ones after it", async () => {
    const f = await feedCommunity(api, roda, "Cache")
    const c = f.community.id
    await insertContent(roda, c, f.spaces.public.id, f.member.profileId, "Primeiro", minutesAgo(30))
    const first = await stats(f, "member")
    expect(first.counts).toEqual({ status: 0, content: 1, course: 0, event: 0 })

    await insertStatus(roda, c, f.member.profileId, "Novo", minutesAgo(1))
    await insertContent(roda, c, f.spaces.public.id, f.member.profileId, "Segundo", minutesAgo(1))
    time.advance(59_000)
    expect(await stats(f, "member")).toEqual(first) // stale by design

    time.advance(2_000)
    const fresh = await stats(f, "member")
    expect(fresh.counts).toEqual({ status: 1, content: 2, course: 0, event: 0 })
    expect(fresh.activity.last7Days.posts).toBe(first.activity.last7Days.posts + 2)
  })

  it("is shared by viewers of one scope, counted once for requests that arrive together", async () => {
    const f = await feedCommunity(api, roda, "Juntos")
    await insertContent(roda, f.community.id, f.spaces.private.id, f.owner.profileId, "Só membros", minutesAgo(5))
    const together = await spans(() =>
      Promise.all([
        ...Array.from({ length: 5 }, () => stats(f, "anonymous")),
        ...Array.from({ length: 5 }, () => stats(f, "moderator"))
      ])
    )
    expect(counts(together)).toBe(2) // one per scope

    // The owner reads what the moderator does (staff): the moderator's entry, without counting again,
    // still without a post made since.
    const moderator = await stats(f, "moderator")
    await insertStatus(roda, f.community.id, f.owner.profileId, "Depois", minutesAgo(1))
    const answers: Array<unknown> = []
    expect(counts(await spans(async () => answers.push(await stats(f, "owner"))))).toBe(0)
    expect(answers).toEqual([moderator])
  })

  it("never answers a viewer with the figures of a wider scope, whoever asked first", async () => {
    const f = await feedCommunity(api, roda, "Escopos")
    const c = f.community.id
    const author = f.owner.profileId
    await insertStatus(roda, c, author, "Status", minutesAgo(20))
    await insertContent(roda, c, f.spaces.public.id, author, "Aberto", minutesAgo(20))
    await insertContent(roda, c, f.spaces.private.id, author, "Membros", minutesAgo(20))
    await insertContent(roda, c, f.spaces.secret.id, author, "Secreto", minutesAgo(20))
    await insertContent(roda, c, f.spaces.gated.id, author, "Pago", minutesAgo(20))

    // Staff first: their entry counts the secret and the gated space.
    expect((await stats(f, "moderator")).counts).toEqual({ status: 1, content: 4, course: 0, event: 0 })
    expect((await stats(f, "anonymous")).counts).toEqual({ status: 0, content: 1, course: 0, event: 0 })
    expect((await stats(f, "member")).counts).toEqual({ status: 1, content: 2, course: 0, event: 0 })
    // Entitled to the plan: reads every space, as staff do, so it is the same scope and entry.
    expect((await stats(f, "entitled")).counts).toEqual({ status: 1, content: 4, course: 0, event: 0 })
    // And again, served from memory now: still each viewer's own figures.
    const names = await spans(async () => {
      expect((await stats(f, "anonymous")).total).toBe(1)
      expect((await stats(f, "member")).total).toBe(3)
      expect((await stats(f, "owner")).total).toBe(5)
    })
    expect(counts(names)).toBe(0)
  })
})

describe("feedStatsMaxAgeSeconds: 0", () => {
  it("counts on every request", async () => {
    const exact = startRoda({ feedStatsMaxAgeSeconds: 0 })
    try {
      const on = client(exact)
      const f = await feedCommunity(on, exact, "Exato")
      expect((await statsOf(on, f, "member")).counts.status).toBe(0)
      await insertStatus(exact, f.community.id, f.member.profileId, "Agora", minutesAgo(1))
      expect((await statsOf(on, f, "member")).counts.status).toBe(1)
    } finally {
      await exact.dispose()
    }
  })
})

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    loadRodaEnvironment.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )
const failure = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? String(exit.cause) : "succeeded")

describe("FEED_STATS_MAX_AGE_SECONDS and makeRoda's feedStatsMaxAgeSeconds", () => {
  it("reads whole seconds, 60 when unset", async () => {
    for (const [given, read] of [[undefined, 60], ["0", 0], ["300", 300]] as const) {
      const exit = await load({
        DATA_DIR: "memory",
        ...(given === undefined ? {} : { FEED_STATS_MAX_AGE_SECONDS: given })
      })
      if (!Exit.isSuccess(exit)) throw new Error(failure(exit))
      expect(exit.value.options.feedStatsMaxAgeSeconds).toBe(read)
    }
  })

  it("refuses anything else at start-up, naming the variable", async () => {
    for (const bad of ["-1", "1.5", "soon", ""]) {
      expect(failure(await load({ DATA_DIR: "memory", FEED_STATS_MAX_AGE_SECONDS: bad }))).toContain(
        `FEED_STATS_MAX_AGE_SECONDS: ${bad} is not a whole number of seconds`
      )
    }
  })

  it("makeRoda refuses a negative or fractional max age before any request", () => {
    for (const bad of [-1, 1.5, Number.NaN, "60" as unknown as number]) {
      expect(() => startRoda({ feedStatsMaxAgeSeconds: bad })).toThrow(RodaConfigError)
    }
    expect(() => startRoda({ feedStatsMaxAgeSeconds: -1 })).toThrow(
      "options.feedStatsMaxAgeSeconds (FEED_STATS_MAX_AGE_SECONDS) must be a whole number of seconds"
    )
  })
})
