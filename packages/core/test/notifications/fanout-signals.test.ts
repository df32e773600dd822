import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import pg from "pg"
import { expect, it } from "vitest"
import { SPACE_POST_JOB, spacePostJob } from "../../src/notifications/FanOut"
import { SIGNAL_CHANNEL } from "../../src/notifications/Signals"
import { Jobs } from "../../src/platform/Jobs"
import { handlerCall } from "../support/handlerCall"
import { startRoda } from "../support/harness"
import { seedFollowers } from "./followers"

/**
 * Issue 55, item 3: a fan-out batch wakes its own recipients' streams, named in signals of at most 100
 * (`pg_notify` in the batch's statement), not every stream of the community: 250 followers in one
 * batch are 3 signals that name each follower once.
 */
const FOLLOWERS = 250
const postgres = process.env.DATABASE_URL

it.runIf(postgres !== undefined)("names a batch's recipients in signals of at most 100", async () => {
  const roda = startRoda({ runJobs: false })
  const listener = new pg.Client({ connectionString: postgres })
  try {
    const call = handlerCall(roda)
    const owner = await call("POST", "/api/auth/register", {
      fullName: "Olga",
      email: `owner-${randomUUID().slice(0, 8)}@roda.test`,
      password: "Secret123"
    })
    const community = await call(
      "POST",
      "/api/communities",
      { name: `Sinais ${randomUUID().slice(0, 8)}` },
      owner.token
    )
    const section = await call("POST", "/api/sections", { title: "Geral" }, owner.token, community.id)
    const space = await call(
      "POST",
      "/api/spaces",
      { sectionId: section.id, title: "Avisos", module: "feed" },
      owner.token,
      community.id
    )
    const tag = randomUUID().slice(0, 8)
    const followers = await roda.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          seedFollowers(sql, {
            communityId: community.id,
            spaceId: space.id,
            count: FOLLOWERS,
            tag,
            domain: "signals.test"
          })
            .pipe(Effect.orDie)
      )
    )

    const heard: Array<{ c: string; p: Array<string> | null }> = []
    await listener.connect()
    listener.on("notification", (message) => {
      const signal = JSON.parse(message.payload ?? "{}")
      if (signal.c === community.id) heard.push(signal)
    })
    await listener.query(`LISTEN ${SIGNAL_CHANNEL}`)

    await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) =>
      Effect.zipRight(
        jobs.enqueue(spacePostJob({
          communityId: community.id,
          spaceId: space.id,
          actorProfileId: community.profileId,
          subject: { type: "content", id: randomUUID(), title: "Aviso a todos" },
          postedAt: new Date().toISOString()
        })),
        jobs.runDue({ kinds: [SPACE_POST_JOB], limit: 1 })
      )))
    // NOTIFY arrives after the batch's commit; a moment for the last one
    for (let i = 0; i < 50 && heard.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20))

    expect(heard.map((signal) => signal.p?.length).sort()).toEqual([100, 100, 50])
    const named = heard.flatMap((signal) => signal.p ?? [])
    expect(new Set(named).size).toBe(FOLLOWERS)
    expect([...named].sort()).toEqual([...followers].sort())
  } finally {
    await listener.end()
    await roda.dispose()
  }
}, 120_000)
