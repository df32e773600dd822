import { Migrator, SqlClient } from "@effect/sql"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, String as Str } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { migrations } from "../src/sql/migrations"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectOk } from "./support/envelope"
import { client, PASSWORD, register, startRoda } from "./support/harness"
import { query } from "./support/sql"

/**
 * `GET /api/profiles/tags` reads counts kept by triggers on `profiles` (migration 0059): after every
 * kind of change, alone or in parallel, they must equal a count of the profiles themselves.
 */

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

interface TagCount {
  readonly tag: string
  readonly count: number
}

const tagPath = (tag: string) => `/api/profiles/tags/${encodeURIComponent(tag)}`
const setTags = (c: TestCommunity, profileId: string, tags: ReadonlyArray<string>) =>
  api.put(`/api/profiles/${profileId}/tags`, { tags }, as(c.owner, c.community))

const listed = async (c: TestCommunity): Promise<ReadonlyArray<TagCount>> =>
  expectOk(await api.get("/api/profiles/tags", as(c.owner, c.community))).map((t: TagCount) => ({
    tag: t.tag,
    count: t.count
  }))

/** The tags of the community's live, active profiles, counted from the profiles themselves. */
const recounted = (c: TestCommunity) =>
  query<TagCount>(
    roda,
    (sql) =>
      sql`SELECT t.tag, count(*)::int AS count FROM profiles p CROSS JOIN LATERAL unnest(p.tags) AS t(tag)
      WHERE p.community_id = ${c.community.id} AND p.removed_at IS NULL AND p.status = 'active'
      GROUP BY t.tag ORDER BY t.tag`
  )

/** The list answers `expected`, and so does a count of the profiles. */
const expectCounts = async (c: TestCommunity, expected: ReadonlyArray<TagCount>) => {
  expect(await listed(c)).toEqual(expected)
  expect(await recounted(c)).toEqual(expected)
}

describe("GET /api/profiles/tags, after each kind of change", () => {
  it("follows tags set, renamed, merged and removed, and members removed, banned, invited and erased", async () => {
    const c = await newCommunity(api)
    const other = await newCommunity(api)
    const ana = await c.addMember("member", "Ana")
    const bia = await c.addMember("member", "Bia")
    const caio = await c.addMember("member", "Caio")
    const dora = await c.addMember("member", "Dora")
    expectOk(await setTags(c, ana.profileId, ["vip", "turma-1"]))
    expectOk(await setTags(c, bia.profileId, ["vip", "turma-2"]))
    expectOk(await setTags(c, caio.profileId, ["turma-1"]))
    expectOk(await setTags(c, dora.profileId, ["vip"]))
    const outra = await other.addMember("member", "Outra")
    expectOk(await setTags(other, outra.profileId, ["vip"]))
    await expectCounts(c, [{ tag: "turma-1", count: 2 }, { tag: "turma-2", count: 1 }, { tag: "vip", count: 3 }])

    expectOk(await setTags(c, caio.profileId, ["turma-2", "novo"]))
    await expectCounts(c, [
      { tag: "novo", count: 1 },
      { tag: "turma-1", count: 1 },
      { tag: "turma-2", count: 2 },
      { tag: "vip", count: 3 }
    ])

    // a rename merging into a tag some profiles already carry; then one onto a fresh name
    expectOk(await api.put(tagPath("turma-1"), { name: "turma-2" }, as(c.owner, c.community)))
    expectOk(await api.put(tagPath("novo"), { name: "antigo" }, as(c.owner, c.community)))
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 3 }, { tag: "vip", count: 3 }])

    expectOk(await api.del(`/api/profiles/${bia.profileId}`, as(c.owner, c.community)))
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 2 }, { tag: "vip", count: 2 }])

    expectOk(
      await api.post(`/api/moderation/members/${dora.profileId}/ban`, { reason: "Spam" }, as(c.owner, c.community))
    )
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 2 }, { tag: "vip", count: 1 }])

    // Bia comes back: an invitation (not counted, even tagged) she accepts, with no tags of before
    const invited = expectOk(
      await api.post("/api/profiles/create", { email: bia.email }, as(c.owner, c.community)),
      201
    )
    expect(invited.status).toBe("invited")
    await query(roda, (sql) => sql`UPDATE profiles SET tags = '{vip}' WHERE id = ${invited.id} RETURNING id`)
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 2 }, { tag: "vip", count: 1 }])
    expectOk(await api.post(`/api/profiles/${invited.id}/accept`, undefined, as(bia, c.community)))
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 2 }, { tag: "vip", count: 2 }])

    expectOk(await api.del(tagPath("vip"), as(c.owner, c.community)))
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 2 }])

    // Ana erases her account: her profile is emptied and removed
    expectOk(await api.call("DELETE", "/api/account", { token: ana.token, body: { password: PASSWORD } }))
    await expectCounts(c, [{ tag: "antigo", count: 1 }, { tag: "turma-2", count: 1 }])

    expect(await listed(other)).toEqual([{ tag: "vip", count: 1 }])
  })

  it("follows profiles written by SQL directly: inserted, deleted, updated many at once", async () => {
    const c = await newCommunity(api)
    const people = await Promise.all([0, 1, 2].map((i) => register(api, `Pessoa ${i}`)))
    const inserted: ReadonlyArray<readonly [string, string]> = [["{a,b}", "active"], ["{a}", "active"], [
      "{a,c}",
      "invited"
    ]]
    for (const [i, [tags, status]] of inserted.entries()) {
      await query(roda, (sql) =>
        sql`INSERT INTO profiles (id, community_id, account_id, role, full_name, tags, status)
          VALUES (${randomUUID()}, ${c.community.id}, ${people[i]!.id}, 'member', 'Direta', ${tags}::text[], ${status})
          RETURNING id`)
    }
    await expectCounts(c, [{ tag: "a", count: 2 }, { tag: "b", count: 1 }])
    await query(roda, (sql) =>
      sql`UPDATE profiles SET status = 'active', tags = array_append(tags, 'b')
        WHERE community_id = ${c.community.id} AND full_name = 'Direta' RETURNING id`)
    await expectCounts(c, [{ tag: "a", count: 3 }, { tag: "b", count: 4 }, { tag: "c", count: 1 }])
    await query(roda, (sql) =>
      sql`DELETE FROM profiles WHERE community_id = ${c.community.id} AND full_name = 'Direta'
        AND 'c' = ANY(tags) RETURNING id`)
    await expectCounts(c, [{ tag: "a", count: 2 }, { tag: "b", count: 3 }])
  })
})

describe("GET /api/profiles/tags, after changes in parallel", () => {
  it("stays exact when many tag changes, renames, removals and member removals run at once", async () => {
    const c = await newCommunity(api)
    const members = await Promise.all(Array.from({ length: 12 }, (_, i) => c.addMember("member", `Pessoa ${i}`)))
    const tags = ["a", "b", "c", "d", "e"]
    const subset = (i: number, round: number) => tags.filter((_, k) => (i + k + round) % 3 !== 0)
    for (const [i, m] of members.entries()) expectOk(await setTags(c, m.profileId, subset(i, 0)))

    const owner = as(c.owner, c.community)
    const [leaving, staying] = [members.slice(0, 2), members.slice(2)]
    const changes = await Promise.all([
      ...staying.flatMap((m, i) => [setTags(c, m.profileId, subset(i, 1)), setTags(c, m.profileId, subset(i, 2))]),
      api.put(tagPath("a"), { name: "b" }, owner),
      api.put(tagPath("c"), { name: "f" }, owner),
      api.del(tagPath("d"), owner),
      ...leaving.map((m) => api.del(`/api/profiles/${m.profileId}`, owner))
    ])
    expect(changes.slice(0, 20).map((reply) => reply.status)).toEqual(Array(20).fill(200))
    expect(changes.slice(-2).map((reply) => reply.status)).toEqual([200, 200])
    // a rename or removal may find no profile left with its tag (404)
    expect(changes.slice(20, 23).filter((reply) => reply.status !== 200 && reply.status !== 404)).toEqual([])

    const counts = await recounted(c)
    expect(counts.reduce((sum, t) => sum + t.count, 0)).toBeGreaterThan(0)
    expect(await listed(c)).toEqual(counts)
  })
})

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }
const migrationsUpTo = (last: string) => Object.fromEntries(Object.entries(migrations).filter(([key]) => key <= last))

describe("migration 0059", () => {
  it("counts the tags of the live profiles already there", async () => {
    const rows = await Effect.runPromise(Effect.scoped(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const migrateTo = (last: string) =>
          Migrator.make({})({ loader: Migrator.fromRecord(migrationsUpTo(last)), table: "roda_migrations" })
        yield* migrateTo("0058_scale_indexes")
        const [account, community] = [randomUUID(), randomUUID()]
        yield* sql`INSERT INTO accounts (id, email, full_name) VALUES (${account}, 'a@x.test', 'A')`
        yield* sql`INSERT INTO communities (id, name, slug, created_by) VALUES (${community}, 'C', 'c', ${account})`
        const profile = (tags: string, removed: boolean, status: string) => {
          const holder = randomUUID()
          return sql`INSERT INTO accounts (id, email, full_name) VALUES (${holder}, ${`${holder}@x.test`}, 'P')`.pipe(
            Effect.zipRight(
              sql`INSERT INTO profiles (id, community_id, account_id, role, full_name, tags, status, removed_at)
                VALUES (${randomUUID()}, ${community}, ${holder}, 'member', 'P', ${tags}::text[], ${status},
                  ${removed ? new Date() : null})`
            )
          )
        }
        yield* profile("{vip,turma}", false, "active")
        yield* profile("{vip}", false, "active")
        yield* profile("{vip}", true, "active")
        yield* profile("{turma}", false, "invited")
        yield* profile("{}", false, "active")
        yield* migrateTo("0059_profile_tag_counts")
        return yield* sql<TagCount>`SELECT tag, profiles AS count FROM profile_tag_counts
          WHERE community_id = ${community} ORDER BY tag`
      }).pipe(Effect.provide(PgliteClient.layer({ extensions: { pg_trgm, unaccent }, ...names })))
    ))
    expect(rows).toEqual([{ tag: "turma", count: 1 }, { tag: "vip", count: 2 }])
  })
})
