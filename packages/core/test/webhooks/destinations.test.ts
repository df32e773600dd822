import { Effect } from "effect"
import { expect, it } from "vitest"
import { nodePublicFetch } from "../../node/publicFetch"
import { PublicFetch } from "../../src/platform/PublicFetch"
import { startReceiver } from "./receiver"

/** A resolver that answers `address` for every name: what a hostile DNS record can make a name do. */
const fetcherResolvingTo = (address: string) =>
  Effect.runSync(
    PublicFetch.pipe(Effect.provide(nodePublicFetch(async () => [{ address, family: 4 }])))
  )

it("checks a webhook's destination after DNS resolution, and an address in the URL before connecting", async () => {
  const receiver = await startReceiver()
  try {
    const port = new URL(receiver.url("/")).port
    const toLoopback = fetcherResolvingTo("127.0.0.1")
    // a public-looking name that resolves to this machine is refused, not connected to
    await expect(toLoopback.post(`http://hooks.example.com:${port}/x`, { body: "{}" })).rejects.toThrow(
      /resolves to no public address/
    )
    for (const literal of ["127.0.0.1", "10.0.0.5", "192.168.1.1", "[::1]"]) {
      await expect(toLoopback.post(`http://${literal}:${port}/x`, { body: "{}" }), literal).rejects.toThrow(
        /not a public address/
      )
    }
    expect(receiver.received).toHaveLength(0)
    // WEBHOOKS_ALLOW_PRIVATE: any address, so the local receiver gets it
    const answer = await toLoopback.post(`http://hooks.example.com:${port}/x`, { body: "{}", anyAddress: true })
    expect(answer.status).toBe(200)
    expect(receiver.received).toHaveLength(1)
  } finally {
    await receiver.close()
  }
})
