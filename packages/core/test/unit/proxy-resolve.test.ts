import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { forwardedHops } from "../../src/http/proxy/forwarded"
import { resolveClient } from "../../src/http/proxy/resolveClient"
import { parseTrustProxy, type TrustProxySetting } from "../../src/http/proxy/trustProxy"

/** The client `setting` resolves for a request from `peer` with `headers`. */
const resolve = (setting: TrustProxySetting | undefined, peer: string | undefined, headers: Record<string, string>) =>
  resolveClient(Either.getOrThrow(parseTrustProxy(setting)), peer, (name) => new Headers(headers).get(name))

const address = (...args: Parameters<typeof resolve>) => resolve(...args).address

describe("no trusted proxy", () => {
  it("the socket's address is the client whatever the headers say", () => {
    const spoofed = {
      "x-forwarded-for": "1.1.1.1",
      forwarded: "for=2.2.2.2;proto=https;host=evil.example",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example"
    }
    expect(resolve(undefined, "203.0.113.9", spoofed)).toEqual({ address: "203.0.113.9" })
    expect(resolve(false, "::ffff:203.0.113.9", spoofed)).toEqual({ address: "203.0.113.9" })
  })

  it("keeps a peer that is not an address as the host gave it, and none as none", () => {
    expect(address(undefined, "some-host-id", {})).toBe("some-host-id")
    expect(address(undefined, undefined, { "x-forwarded-for": "1.1.1.1" })).toBeUndefined()
  })
})

describe("a number of trusted hops", () => {
  it("takes the n-th address from the right, so a spoofed leftmost entry changes nothing", () => {
    const headers = { "x-forwarded-for": "6.6.6.6, 7.7.7.7, 198.51.100.7, 10.0.0.2" }
    expect(address(1, "10.0.0.1", headers)).toBe("10.0.0.2")
    expect(address(2, "10.0.0.1", headers)).toBe("198.51.100.7")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "6.6.6.6,198.51.100.7" })).toBe("198.51.100.7")
  })

  it("with more hops than entries, the leftmost entry; with no header, the peer", () => {
    expect(address(3, "10.0.0.1", { "x-forwarded-for": "198.51.100.7" })).toBe("198.51.100.7")
    expect(address(1, "10.0.0.1", {})).toBe("10.0.0.1")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "  " })).toBe("10.0.0.1")
  })

  it("reads ports and brackets off, and writes addresses canonically", () => {
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "198.51.100.7:5123" })).toBe("198.51.100.7")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "[2001:DB8:0::7]:443" })).toBe("2001:db8::7")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "2001:db8:0:0::7" })).toBe("2001:db8::7")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "::ffff:198.51.100.7" })).toBe("198.51.100.7")
  })

  it("stops at the trusted hop that sent garbage, unknown or an obfuscated name", () => {
    for (const garbage of ["unknown", "_hidden", "evil.example", "1.2.3.4.5", "\"1.2.3.4\"", "", "<script>"]) {
      expect(address(1, "10.0.0.1", { "x-forwarded-for": `6.6.6.6, ${garbage}` }), garbage).toBe("10.0.0.1")
      expect(address(2, "10.0.0.1", { "x-forwarded-for": `${garbage}, 10.0.0.2` }), garbage).toBe("10.0.0.2")
    }
    expect(address(1, "10.0.0.1", { "x-forwarded-for": "x".repeat(8000) })).toBe("10.0.0.1")
    expect(address(1, "10.0.0.1", { "x-forwarded-for": ",".repeat(8000) })).toBe("10.0.0.1")
  })

  it("trusts the hop count even when the host gives no peer address", () => {
    expect(address(1, undefined, { "x-forwarded-for": "6.6.6.6, 198.51.100.7" })).toBe("198.51.100.7")
  })
})

describe("trusted addresses and ranges", () => {
  it("skips trusted hops from the right; the first untrusted one is the client", () => {
    const headers = { "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.1.1.1, 192.168.0.3" }
    expect(address("private", "10.0.0.1", headers)).toBe("198.51.100.7")
    expect(address("loopback, 10.0.0.0/8", "127.0.0.1", headers)).toBe("192.168.0.3")
    expect(address("10.0.0.1, 192.168.0.3", "10.0.0.1", headers)).toBe("10.1.1.1")
  })

  it("ignores every header from a peer it does not trust", () => {
    expect(address("loopback", "203.0.113.9", { "x-forwarded-for": "127.0.0.1" })).toBe("203.0.113.9")
    expect(address("private", "198.51.100.7", { forwarded: "for=10.0.0.9" })).toBe("198.51.100.7")
  })

  it("a client cannot pose as a trusted proxy by prepending trusted addresses", () => {
    expect(address("private", "10.0.0.1", { "x-forwarded-for": "10.9.9.9, 10.8.8.8, 198.51.100.7" })).toBe(
      "198.51.100.7"
    )
  })

  it("when every hop is trusted, the leftmost", () => {
    expect(address("private", "10.0.0.1", { "x-forwarded-for": "10.0.0.3, 10.0.0.2" })).toBe("10.0.0.3")
  })

  it("matches IPv6 peers and a dual-stack socket's IPv4-mapped form", () => {
    expect(address("loopback", "::1", { "x-forwarded-for": "198.51.100.7" })).toBe("198.51.100.7")
    expect(address("loopback", "::ffff:127.0.0.1", { "x-forwarded-for": "198.51.100.7" })).toBe("198.51.100.7")
    expect(address("fd00::/8", "fd00::5", { "x-forwarded-for": "2001:db8::1, fd00::4" })).toBe("2001:db8::1")
  })
})

describe("Forwarded (RFC 7239)", () => {
  it("is read before X-Forwarded-For when present", () => {
    const headers = { forwarded: "for=198.51.100.7", "x-forwarded-for": "203.0.113.5" }
    expect(address(1, "10.0.0.1", headers)).toBe("198.51.100.7")
    expect(address(1, "10.0.0.1", { ...headers, forwarded: "  " })).toBe("203.0.113.5")
  })

  it("reads quoted IPv6 with a port, IPv4 with a port, case-insensitive names and several elements", () => {
    expect(address(1, "10.0.0.1", { forwarded: "For=\"[2001:db8:cafe::17]:4711\"" })).toBe("2001:db8:cafe::17")
    expect(address(1, "10.0.0.1", { forwarded: "for=\"192.0.2.43:47011\";proto=https" })).toBe("192.0.2.43")
    const chain = { forwarded: "for=6.6.6.6, for=198.51.100.7;by=10.0.0.2, for=10.0.0.2" }
    expect(address(2, "10.0.0.1", chain)).toBe("198.51.100.7")
    expect(address("private", "10.0.0.1", chain)).toBe("198.51.100.7")
  })

  it("an unknown or obfuscated client, or an element without for=, stops at the trusted proxy", () => {
    for (
      const element of ["for=unknown", "for=_hidden", "for=\"_x:_y\"", "proto=https", "for=", "for=\"[::1\"", "garbage"]
    ) {
      expect(address(1, "10.0.0.1", { forwarded: `for=6.6.6.6, ${element}` }), element).toBe("10.0.0.1")
    }
  })

  it("keeps commas and semicolons inside quoted strings, and survives unbalanced quotes", () => {
    expect(forwardedHops("for=\"a,b;c\";proto=https, for=1.2.3.4")).toHaveLength(2)
    expect(address(1, "10.0.0.1", { forwarded: "for=1.2.3.4, for=\"5.6.7.8" })).toBe("5.6.7.8")
    expect(address(1, "10.0.0.1", { forwarded: "for=\"\\\"" })).toBe("10.0.0.1")
    expect(address(1, "10.0.0.1", { forwarded: "\"".repeat(5000) })).toBe("10.0.0.1")
  })
})

describe("X-Forwarded-Proto and X-Forwarded-Host", () => {
  it("are read from the hop that received the client, only when it is trusted", () => {
    const headers = {
      "x-forwarded-for": "198.51.100.7",
      "x-forwarded-proto": "HTTPS",
      "x-forwarded-host": "Community.Example"
    }
    expect(resolve(1, "10.0.0.1", headers)).toEqual({
      address: "198.51.100.7",
      proto: "https",
      host: "community.example"
    })
    expect(resolve("loopback", "10.0.0.1", headers)).toEqual({ address: "10.0.0.1" })
    expect(resolve(1, "10.0.0.1", { forwarded: "for=198.51.100.7;proto=https;host=\"c.example:8443\"" })).toEqual({
      address: "198.51.100.7",
      proto: "https",
      host: "c.example:8443"
    })
  })

  it("align with X-Forwarded-For from the right, and a bad value is no value", () => {
    const headers = {
      "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.2",
      "x-forwarded-proto": "http, https, http",
      "x-forwarded-host": "evil.example"
    }
    expect(resolve(2, "10.0.0.1", headers)).toEqual({ address: "198.51.100.7", proto: "https", host: undefined })
    expect(resolve(1, "10.0.0.1", { "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "ht tp" }).proto)
      .toBeUndefined()
    expect(resolve(1, "10.0.0.1", { "x-forwarded-for": "198.51.100.7", "x-forwarded-host": "a/b@c" }).host)
      .toBeUndefined()
  })
})
