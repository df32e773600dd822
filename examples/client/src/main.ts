import { Effect } from "effect"
import { startRoda } from "./server"
import { onboardWithEffect } from "./withEffect"
import { onboardWithFetch } from "./withFetch"

const roda = await startRoda()
try {
  console.log("Effect client:", await Effect.runPromise(onboardWithEffect(roda.url, "eva@example.com")))
  console.log("fetch client:", await onboardWithFetch(roda.url, "fia@example.com"))
} finally {
  await roda.stop()
}
