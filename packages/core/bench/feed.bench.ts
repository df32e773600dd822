import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, bench, describe } from "vitest"
import type { Roda } from "../src/index"
import { client, makeCommunity, startRoda } from "../test/support/harness"

/**
 * The feed's first page and a title search must not slow down as a community's posts grow: the
 * same requests over 1,000 and 100,000 posts (half status posts, half content posts in a public
 * feed space), each community in its own database.
 */
const sizes = [1_000, 100_000] as const

interface Setup {
  readonly roda: Roda
  readonly api: ReturnType<typeof client>
  readonly headers: { token: string; community: string }
}

const setups = new Map<number, Setup>()

const seed = async (posts: number): Promise<Setup> => {
  const roda = startRoda()
  const api = client(roda)
  const { owner, community } = await makeCommunity(api, `Feed bench ${posts}`)
  const headers = { token: owner.token, community: community.id }
  const section = await api.post("/api/sections", { title: "Geral", visibility: "public" }, headers)
  const space = await api.post(
    "/api/spaces",
    { sectionId: section.body.data.id, title: "Feed", module: "feed", visibility: "public" },
    headers
  )
  const half = posts / 2
  await roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at)
        SELECT gen_random_uuid(), ${community.id}, ${community.profileId}, 'Status número ' || n,
          now() - n * interval '1 minute', now() - n * interval '1 minute'
        FROM generate_series(1, ${half}) n`
      yield* sql`INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, created_at,
          updated_at)
        SELECT gen_random_uuid(), ${community.id}, ${space.body.data.id}, ${community.profileId},
          'Publicação ' || md5(n::text) || ' sobre ' || (ARRAY['Ação', 'Educação', 'Música', 'Café'])[n % 4 + 1],
          'Texto ' || n, now() - n * interval '1 minute' - interval '30 seconds',
          now() - n * interval '1 minute'
        FROM generate_series(1, ${half}) n`
      // one post every search finds, whatever the size
      yield* sql`INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body)
        VALUES (gen_random_uuid(), ${community.id}, ${space.body.data.id}, ${community.profileId},
          'Búsca de referência', 'Alvo')`
      yield* sql`ANALYZE`
    })))
  const page = await api.get("/api/feed?limit=20", headers)
  const found = await api.get("/api/search?q=busca%20de%20refer", headers)
  if (page.body.data?.length !== 20 || found.body.data?.[0]?.title !== "Búsca de referência") {
    throw new Error(`bench setup: unexpected answers ${page.status} ${found.status}`)
  }
  return { roda, api, headers }
}

beforeAll(async () => {
  for (const size of sizes) setups.set(size, await seed(size))
}, 600_000)

afterAll(async () => {
  for (const setup of setups.values()) await setup.roda.dispose()
})

for (const size of sizes) {
  describe(`feed over ${size.toLocaleString("en")} posts`, () => {
    bench("first feed page", async () => {
      const { api, headers } = setups.get(size)!
      await api.get("/api/feed?limit=20", headers)
    })
    bench("search", async () => {
      const { api, headers } = setups.get(size)!
      await api.get("/api/search?q=busca%20de%20refer", headers)
    })
  })
}
