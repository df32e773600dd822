/**
 * A Roda process for `bench/webhooks.mjs`, run with `node --import tsx`. `seed <dataDir> <url> <events>
 * <endpoints>`: with no delivery worker, makes a community, `endpoints` webhooks to `url?e=<n>` and
 * commits `events` events (500 a transaction), then exits. `deliver <dataDir>`: starts with its worker
 * on the same database and runs until it is stopped.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, secret } from "../../node/index"
import { WebhookEvents } from "../../src/webhooks/WebhookEvents"
import { handlerCall } from "../support/handlerCall"

const [phase, dataDir, url, eventsText, endpointsText] = process.argv.slice(2)
const roda = makeRoda({
  database: process.env.DATABASE_URL
    ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
    : { _tag: "Embedded" as const, dataDir: dataDir! },
  options: defaultOptions({
    jwtSecret: secret("bench-secret-that-is-long-enough-for-hs256"),
    publicBaseUrl: "http://roda.test",
    webhooksAllowPrivate: true,
    rateLimits: RATE_LIMITS_OFF,
    runJobs: phase !== "seed"
  })
})

const call = handlerCall(roda)

if (phase === "seed") {
  const email = `owner-${randomUUID().slice(0, 8)}@roda.test`
  const owner = await call("POST", "/api/auth/register", { fullName: "Olga", email, password: "Secret123" })
  const community = await call("POST", "/api/communities", { name: `Bench ${randomUUID().slice(0, 8)}` }, owner.token)
  for (let e = 0; e < Number(endpointsText); e++) {
    await call("POST", "/api/webhooks", { url: `${url}?e=${e}`, events: ["post.created"] }, owner.token, community.id)
  }
  const total = Number(eventsText)
  for (let done = 0; done < total; done += 500) {
    const batch = Math.min(500, total - done)
    await roda.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql.withTransaction(Effect.flatMap(WebhookEvents, (events) =>
            Effect.forEach(
              Array.from({ length: batch }, (_, i) => done + i),
              (n) => events.emit(community.id, "post.created", { id: `post-${n}` }),
              { discard: true }
            )))
      ).pipe(Effect.orDie)
    )
  }
  await roda.dispose()
  console.log("seeded")
  process.exit(0)
} else {
  await roda.ready()
  console.log("delivering")
  await new Promise(() => undefined)
}
