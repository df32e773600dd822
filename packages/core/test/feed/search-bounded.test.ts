import { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CANDIDATES_PER_MATCH, SearchRepo } from "../../src/search/Repo"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { type FeedCommunity, feedCommunity, insertContent, minutesAgo } from "./setup"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

/** More titles than the search reads per kind of match: the bound is what is tested. */
const MANY = CANDIDATES_PER_MATCH + 50

let f: FeedCommunity
const ids: Record<string, string> = {}

beforeAll(async () => {
  f = await feedCommunity(api, roda, "Limite")
  const c = f.community.id
  const author = f.member.profileId
  const space = f.spaces.public.id
  // Many titles with the word inside and many starting with it: more matches than candidates.
  const many = (title: string) =>
    query(
      roda,
      (sql) =>
        sql`INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, created_at, updated_at)
        SELECT gen_random_uuid(), ${c}, ${space}, ${author}, ${title} || k,
          'Corpo', now() - interval '1 hour', now() - interval '1 hour'
        FROM generate_series(1, ${MANY}) k`
    )
  await many("Notas antigas sobre zebras número ")
  await many("Zebras e outros listrados, parte ")
  ids.exact = await insertContent(roda, c, space, author, "Zebras", minutesAgo(5))
  ids.prefix = await insertContent(roda, c, space, author, "Zebras da savana", minutesAgo(4))
  ids.typo = await insertContent(roda, c, space, author, "Guia das zebrras", minutesAgo(3))
  ids.hidden = await insertContent(roda, c, space, author, "Zebras escondidas", minutesAgo(2))
  await query(roda, (sql) => sql`UPDATE content_posts SET hidden_at = now() WHERE id = ${ids.hidden}`)
  ids.private = await insertContent(roda, c, f.spaces.private.id, author, "Zebras privadas", minutesAgo(1))
})

const search = async (q: string, viewer: keyof FeedCommunity["headers"], limit = 20) =>
  expectOk(
    await api.get(`/api/search?q=${encodeURIComponent(q)}&limit=${limit}`, f.headers[viewer])
  ) as Array<{ type: string; id: string; title: string; score: number }>

/** Rows each scan of `table` returned when `q` was searched (EXPLAIN ANALYZE of the search's statement). */
const rowsReadFrom = async (table: string, q: string) => {
  const [row] = await query(roda, (sql) =>
    Effect.gen(function*() {
      let statement: readonly [string, ReadonlyArray<unknown>] | undefined
      yield* (yield* SearchRepo).search(
        { communityId: f.community.id, spaceIds: [f.spaces.public.id], staff: false },
        q,
        20
      )
        .pipe(Statement.withTransformer((self) => {
          const compiled = self.compile()
          if (/^\s*SELECT/.test(compiled[0])) statement = compiled
          return Effect.succeed(self)
        }))
      const [text, params] = statement!
      return yield* sql.withTransaction(
        Effect.zipRight(
          sql`SET LOCAL enable_bitmapscan = off`,
          sql.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)
        )
      )
    }).pipe(Effect.provide(SearchRepo.Default), Effect.provideService(SqlClient.SqlClient, sql)))
  const value = Object.values(row!)[0]
  const plan: unknown = typeof value === "string" ? JSON.parse(value) : value
  const rows: Array<number> = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (node === null || typeof node !== "object") return
    const record = node as Record<string, unknown>
    if (record["Relation Name"] === table) rows.push(Number(record["Actual Rows"]) * Number(record["Actual Loops"]))
    Object.values(record).forEach(walk)
  }
  walk(plan)
  return rows
}

describe("GET /api/search with more matches than candidates", () => {
  it("reads at most the candidates of each kind of match, not every match", async () => {
    const [matches] = await query<{ n: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS n FROM content_posts WHERE community_id = ${f.community.id} AND title ILIKE '%zebras%'`
    )
    expect(matches!.n).toBeGreaterThan(2 * CANDIDATES_PER_MATCH)
    const scans = await rowsReadFrom("content_posts", "zebras")
    expect(scans.length).toBeGreaterThan(0)
    for (const rows of scans) expect(rows).toBeLessThanOrEqual(CANDIDATES_PER_MATCH)
  })

  it("still answers the titles starting with the query first, shortest first", async () => {
    const results = await search("zebras", "anonymous")
    expect(results).toHaveLength(20)
    expect(results.slice(0, 2).map((r) => r.id)).toEqual([ids.exact, ids.prefix])
    // every title on the page starts with the query: they outrank the titles that only contain it
    for (const r of results) expect(r.title.toLowerCase().startsWith("zebras")).toBe(true)
    const scores = results.map((r) => r.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  })

  it("fills a page of the largest limit and keeps what the caller may not read out", async () => {
    const anonymous = await search("zebras", "anonymous", 100)
    expect(anonymous).toHaveLength(100)
    expect(new Set(anonymous.map((r) => r.id)).size).toBe(100)
    expect(anonymous.map((r) => r.id)).not.toContain(ids.hidden)
    expect(anonymous.map((r) => r.id)).not.toContain(ids.private)
    expect((await search("zebras privadas", "member")).map((r) => r.id)[0]).toBe(ids.private)
    expect((await search("zebras privadas", "anonymous")).map((r) => r.id)).not.toContain(ids.private)
  })

  it("finds a word inside titles and a typo among many matches", async () => {
    const inside = await search("antigas sobre zebras número 7", "anonymous")
    expect(inside[0]?.title).toBe("Notas antigas sobre zebras número 7")
    expect((await search("zebrras", "anonymous")).map((r) => r.id)).toContain(ids.typo)
  })

  it("matches a query without three letters in a row by title start only", async () => {
    const short = await search("ze", "anonymous", 100)
    expect(short.map((r) => r.id)).toContain(ids.exact)
    for (const r of short) expect(r.title.toLowerCase()).toMatch(/(^| )ze/)
  })
})
