import { Effect } from "effect"
import { onboard, RodaLive } from "./program"

const result = await Effect.runPromise(onboard("effie@example.com").pipe(Effect.provide(RodaLive)))
console.log(`${result.account.email} owns ${result.community.name}`)
