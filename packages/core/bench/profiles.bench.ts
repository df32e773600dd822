import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, bench, describe } from "vitest"
import { client, makeCommunity, startRoda } from "../test/support/harness"

/**
 * The member directory must stay fast as communities grow: the first page, a page deep in the list
 * (keyset, so as cheap as the first) and autocomplete, over 20,000 profiles.
 */
const PROFILES = 20_000
const roda = startRoda()
const api = client(roda)
let headers: { token: string; community: string }
let deepCursor = ""

beforeAll(async () => {
  const { owner, community } = await makeCommunity(api, "Bench")
  headers = { token: owner.token, community: community.id }
  await roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO accounts (id, email, full_name)
        SELECT gen_random_uuid(), 'bench-' || n || '@roda.test', 'Pessoa ' || n FROM generate_series(1, ${PROFILES}) n`
      yield* sql`INSERT INTO profiles (id, community_id, account_id, role, full_name, tags)
        SELECT gen_random_uuid(), ${community.id}, id, 'member', full_name, ARRAY['t' || (random() * 20)::int]
        FROM accounts WHERE email LIKE 'bench-%'`
      yield* sql`ANALYZE`
    })))
  let cursor: string | null = null
  for (let page = 0; page < 50; page++) {
    const reply = await api.get(`/api/profiles/list?limit=100${cursor ? `&cursor=${cursor}` : ""}`, headers)
    cursor = reply.body.pagination.nextCursor
  }
  deepCursor = cursor ?? ""
}, 300_000)

afterAll(() => roda.dispose())

describe(`member directory over ${PROFILES} profiles`, () => {
  bench("first page", async () => {
    await api.get("/api/profiles/list?limit=20", headers)
  })
  bench("page 5,000 rows deep (keyset)", async () => {
    await api.get(`/api/profiles/list?limit=20&cursor=${deepCursor}`, headers)
  })
  bench("filter by tag", async () => {
    await api.get("/api/profiles/list?limit=20&tag=t7", headers)
  })
  bench("autocomplete", async () => {
    await api.get("/api/profiles/autocomplete?q=Pessoa%201234", headers)
  })
})
