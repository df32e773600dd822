import { Communities, defaultOptions, Identity, secret, servicesLayer } from "@roda/core/node"
import { Effect } from "effect"

/** Roda's services (database, ports, use cases) as a layer of the host's own Effect app. */
export const RodaLive = servicesLayer({
  database: { _tag: "Embedded", dataDir: "memory" },
  options: defaultOptions({ jwtSecret: secret("an-example-secret-of-at-least-32-characters") })
})

/** The host's own program, calling Roda's use cases directly: no HTTP in between. */
export const onboard = (email: string) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const registered = yield* identity.register({ fullName: "Effie Effect", email, password: "Secret123" })
    const account = yield* Effect.flatten(identity.findAccount(registered.id))
    const communities = yield* Communities
    const community = yield* communities.create(account, { name: "Effect Host Club" })
    const mine = yield* communities.my(account)
    return { account, community, mine }
  })
