/**
 * A Roda process for the outbox test (`outbox-kill.test.ts`), run with `node --import tsx`.
 * `emit <dataDir> <url>`: with no delivery worker, makes a community and a webhook to `url`, commits
 * one event (`post.created`, in a transaction as a feature's change would), prints `committed <id>`
 * and waits to be killed. `deliver <dataDir>`: starts on the same database with its worker, and runs
 * until it is stopped.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { defaultOptions, makeRoda, secret } from "../../node/index"
import { WebhookEvents } from "../../src/webhooks/WebhookEvents"
import { handlerCall } from "../support/handlerCall"

const [phase, dataDir, url] = process.argv.slice(2)
const database = process.env.DATABASE_URL
  ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
  : { _tag: "Embedded" as const, dataDir: dataDir! }
const roda = makeRoda({
  database,
  options: defaultOptions({
    jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
    publicBaseUrl: "http://roda.test",
    webhooksAllowPrivate: true,
    runJobs: phase !== "emit"
  })
})

const call = handlerCall(roda)

if (phase === "emit") {
  const email = `owner-${randomUUID().slice(0, 8)}@roda.test`
  const owner = await call("POST", "/api/auth/register", { fullName: "Olga", email, password: "Secret123" })
  const community = await call("POST", "/api/communities", { name: `Saída ${randomUUID().slice(0, 8)}` }, owner.token)
  await call("POST", "/api/webhooks", { url, events: ["post.created"] }, owner.token, community.id)
  const marker = randomUUID()
  await roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(
        Effect.flatMap(WebhookEvents, (events) => events.emit(community.id, "post.created", { id: marker }))
      )).pipe(Effect.orDie)
  )
  console.log(`committed ${marker}`)
} else {
  await roda.ready()
  console.log("delivering")
}
// Both wait here: `emit` for its SIGKILL, `deliver` for the test to stop it.
await new Promise(() => undefined)
