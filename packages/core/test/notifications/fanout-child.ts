/**
 * A Roda process for the fan-out kill test (`fanout-kill.test.ts`), run with `node --import tsx`.
 * `post <dataDir> <followers>`: with no job runner, makes a community whose feed space `followers`
 * members follow (bulk SQL), queues a post's `space_post` fan-out in a transaction as `ContentPosts`
 * does, prints `queued <subjectId>`, then runs the jobs one batch of 100 at a time, printing `batch`
 * after each, until killed. `finish <dataDir> <subjectId>`: starts on the same database with its job
 * runner, prints `counted <rows> <recipients>` of that post's `space_post` once no fan-out job is
 * left, and runs until stopped.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { defaultOptions, makeRoda, secret } from "../../node/index"
import { SPACE_POST_JOB, spacePostJob } from "../../src/notifications/FanOut"
import { Jobs } from "../../src/platform/Jobs"
import { handlerCall } from "../support/handlerCall"
import { seedFollowers } from "./followers"

const [phase, dataDir, count] = process.argv.slice(2)
const database = process.env.DATABASE_URL
  ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
  : { _tag: "Embedded" as const, dataDir: dataDir! }
const roda = makeRoda({
  database,
  options: defaultOptions({
    jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
    publicBaseUrl: "http://roda.test",
    runJobs: phase !== "post"
  })
})
const sql = <A>(run: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run).pipe(Effect.orDie))

if (phase === "post") {
  const call = handlerCall(roda)
  const email = `owner-${randomUUID().slice(0, 8)}@roda.test`
  const owner = await call("POST", "/api/auth/register", { fullName: "Olga", email, password: "Secret123" })
  const community = await call("POST", "/api/communities", { name: `Leque ${randomUUID().slice(0, 8)}` }, owner.token)
  const section = await call("POST", "/api/sections", { title: "Geral" }, owner.token, community.id)
  const space = await call(
    "POST",
    "/api/spaces",
    { sectionId: section.id, title: "Avisos", module: "feed" },
    owner.token,
    community.id
  )
  const tag = randomUUID().slice(0, 8)
  await sql((sql) =>
    seedFollowers(sql, {
      communityId: community.id,
      spaceId: space.id,
      count: Number(count),
      tag,
      domain: "fanout.test"
    })
  )
  const subjectId = randomUUID()
  await roda.runtime.runPromise(
    Effect.flatMap(Jobs, (jobs) =>
      jobs.enqueue(spacePostJob({
        communityId: community.id,
        spaceId: space.id,
        actorProfileId: community.profileId,
        subject: { type: "content", id: subjectId, title: "Aviso a todos" },
        postedAt: new Date().toISOString(),
        batch: 100
      })))
  )
  console.log(`queued ${subjectId}`)
  for (;;) {
    await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ kinds: [SPACE_POST_JOB], limit: 1 })))
    console.log("batch")
  }
} else {
  // `finish <dataDir> <subjectId>`: runs the jobs until no fan-out job is left, then prints what was written.
  const subjectId = count!
  await roda.ready()
  for (;;) {
    const [left] = await sql((sql) =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE kind = ${SPACE_POST_JOB} AND status = 'queued'`
    )
    if (left!.n === 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const [written] = await sql((sql) =>
    sql<{ rows: number; people: number }>`SELECT count(*)::int AS rows,
      count(DISTINCT recipient_profile_id)::int AS people
      FROM notifications WHERE kind = 'space_post' AND subject_id = ${subjectId}`
  )
  console.log(`counted ${written!.rows} ${written!.people}`)
  await new Promise(() => undefined)
}
