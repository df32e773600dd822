import { Effect } from "effect"
import type { LookupAddress } from "node:dns"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodePublicFetch, reachableLookup, type Resolve } from "../../node/publicFetch"
import { PublicFetch } from "../../src/platform/PublicFetch"
import { isPublicAddress } from "../../src/platform/publicHost"

const text = async (body: AsyncIterable<Uint8Array>) => {
  let out = ""
  for await (const chunk of body) out += Buffer.from(chunk).toString("utf8")
  return out
}

/** A resolver that answers from a table, and remembers what it was asked. */
const table = (entries: Record<string, ReadonlyArray<LookupAddress>>) => {
  const asked: Array<string> = []
  const resolve: Resolve = async (hostname) => {
    asked.push(hostname)
    const found = entries[hostname]
    if (found === undefined) throw Object.assign(new Error(`no such name ${hostname}`), { code: "ENOTFOUND" })
    return found
  }
  return { resolve, asked }
}

const v4 = (address: string): LookupAddress => ({ address, family: 4 })
const v6 = (address: string): LookupAddress => ({ address, family: 6 })

describe("addresses a resolved name may be reached at", () => {
  it("accepts public addresses and refuses loopback, private, link-local, shared and reserved ones", () => {
    for (const address of ["8.8.8.8", "93.184.216.34", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true)
    }
    for (
      const address of [
        "127.0.0.1",
        "10.0.0.5",
        "172.16.0.1",
        "192.168.0.10",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "::1",
        "::",
        "::7f00:1",
        "::ffff:10.0.0.1",
        "::ffff:7f00:1",
        "fd00::1",
        "fe80::1",
        "ff02::1",
        "not-an-address"
      ]
    ) expect(isPublicAddress(address), address).toBe(false)
  })

  it("hands the socket only the public addresses of a name, and fails a name with none", async () => {
    const { resolve } = table({
      "mixed.example.com": [v4("10.0.0.5"), v4("93.184.216.34"), v6("fd00::1"), v6("2001:4860:4860::8888")],
      "inside.example.com": [v4("127.0.0.1"), v6("::1")]
    })
    const lookup = reachableLookup(resolve, false)
    const ask = (hostname: string, options: { all?: boolean; family?: number }) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number | undefined }>((done) =>
        lookup(hostname, options, (error, address, family) => done({ error, address, family }))
      )
    expect((await ask("mixed.example.com", { all: true })).address).toEqual([
      v4("93.184.216.34"),
      v6("2001:4860:4860::8888")
    ])
    expect(await ask("mixed.example.com", {})).toMatchObject({ error: null, address: "93.184.216.34", family: 4 })
    expect(await ask("mixed.example.com", { family: 6 })).toMatchObject({ address: "2001:4860:4860::8888" })
    const refused = await ask("inside.example.com", { all: true })
    expect(refused.error?.code).toBe("ENOTFOUND")
    expect(refused.error?.message).toContain("no public address")
    expect((await ask("unknown.example.com", {})).error?.code).toBe("ENOTFOUND")
    // Loopback only when asked for (plain-HTTP loopback documents under the test option).
    const loopback = reachableLookup(resolve, true)
    await new Promise<void>((done) =>
      loopback("inside.example.com", { all: true }, (error, address) => {
        expect(error).toBeNull()
        expect(address).toEqual([v4("127.0.0.1"), v6("::1")])
        done()
      })
    )
  })
})

describe("PublicFetch on Node", () => {
  let server: Server
  let port = 0
  let served = 0
  beforeAll(async () => {
    server = createServer((_request, response) => {
      served++
      response.setHeader("content-type", "application/json")
      response.end(JSON.stringify({ client_id: "x" }))
    })
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((done) => server.close(done)))

  const getter = (resolve: Resolve) => Effect.runSync(Effect.provide(PublicFetch, nodePublicFetch(resolve))).get

  it("never connects to a public-looking name that resolves into the server's own network", async () => {
    const { resolve, asked } = table({ "client.example.com": [v4("127.0.0.1")] })
    const before = served
    await expect(getter(resolve)(`http://client.example.com:${port}/client.json`, {})).rejects.toThrow(
      /no public address/
    )
    expect(asked).toEqual(["client.example.com"])
    expect(served).toBe(before)
  })

  it("reaches the address the name resolved to when it may (here loopback, allowed for the test)", async () => {
    const { resolve } = table({ "client.example.com": [v4("10.0.0.5"), v4("127.0.0.1")] })
    const before = served
    const answer = await getter(resolve)(`http://client.example.com:${port}/client.json`, {
      headers: { accept: "application/json" },
      loopback: true
    })
    expect(answer.status).toBe(200)
    expect(JSON.parse(await text(answer.body))).toEqual({ client_id: "x" })
    expect(served).toBe(before + 1)
  })
})
