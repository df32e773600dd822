import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { canonicalIp, inRange, parseIp, parseRange } from "../../src/http/proxy/address"
import { parseTrustProxy } from "../../src/http/proxy/trustProxy"

describe("addresses", () => {
  it("writes IPv4 dotted, IPv6 as RFC 5952 says, an IPv4-mapped IPv6 address as its IPv4", () => {
    expect(canonicalIp("192.0.2.1")).toBe("192.0.2.1")
    expect(canonicalIp("::ffff:127.0.0.1")).toBe("127.0.0.1")
    expect(canonicalIp("::FFFF:7f00:1")).toBe("127.0.0.1")
    expect(canonicalIp("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1")
    expect(canonicalIp("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1")
    expect(canonicalIp("2001:db8:0:1:1:1:1:1")).toBe("2001:db8:0:1:1:1:1:1")
    expect(canonicalIp("0:0:0:0:0:0:0:1")).toBe("::1")
    expect(canonicalIp("::")).toBe("::")
    expect(canonicalIp("fe80::1%eth0")).toBe("fe80::1")
    expect(canonicalIp("1::")).toBe("1::")
  })

  it("refuses what is not an address", () => {
    for (
      const text of [
        "",
        "unknown",
        "_hidden",
        "example.com",
        "1.2.3",
        "1.2.3.4.5",
        "256.1.1.1",
        "010.0.0.1",
        "1.2.3.4:80",
        "[::1]",
        "1:2:3:4:5:6:7:8:9",
        "1::2::3",
        "12345::",
        "::g",
        "1:2:3:4:5:6:7::8:9",
        ":::",
        "1.2.3.4 ",
        "x".repeat(1000)
      ]
    ) expect(parseIp(text), text).toBeUndefined()
  })

  it("matches CIDR ranges of either family, an IPv4 range matching the mapped form too", () => {
    const in10 = parseRange("10.0.0.0/8")!
    expect(inRange(parseIp("10.255.1.2")!, in10)).toBe(true)
    expect(inRange(parseIp("::ffff:10.1.2.3")!, in10)).toBe(true)
    expect(inRange(parseIp("11.0.0.1")!, in10)).toBe(false)
    const in172 = parseRange("172.16.0.0/12")!
    expect(inRange(parseIp("172.31.255.255")!, in172)).toBe(true)
    expect(inRange(parseIp("172.32.0.1")!, in172)).toBe(false)
    const ula = parseRange("fd00::/8")!
    expect(inRange(parseIp("fd12:3456::1")!, ula)).toBe(true)
    expect(inRange(parseIp("fe80::1")!, ula)).toBe(false)
    const one = parseRange("2001:db8::1")!
    expect(inRange(parseIp("2001:db8:0::1")!, one)).toBe(true)
    expect(inRange(parseIp("2001:db8::2")!, one)).toBe(false)
    expect(inRange(parseIp("1.2.3.4")!, parseRange("0.0.0.0/0")!)).toBe(true)
    expect(inRange(parseIp("2001:db8::1")!, parseRange("0.0.0.0/0")!)).toBe(false)
    for (const bad of ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "host/8"]) {
      expect(parseRange(bad), bad).toBeUndefined()
    }
  })
})

describe("TRUST_PROXY", () => {
  const rule = (setting: Parameters<typeof parseTrustProxy>[0]) => Either.getOrThrow(parseTrustProxy(setting))

  it("unset, empty, false or 0 trust nobody", () => {
    for (const setting of [undefined, false, "", " false ", "FALSE", 0, "0"]) {
      expect(rule(setting), String(setting)).toEqual({ _tag: "None" })
    }
  })

  it("a number counts hops", () => {
    expect(rule(2)).toEqual({ _tag: "Hops", count: 2 })
    expect(rule(" 1 ")).toEqual({ _tag: "Hops", count: 1 })
  })

  it("a list names addresses, CIDRs, loopback and private", () => {
    const parsed = rule("loopback, 10.1.2.3 ,fd00::/8, Private")
    expect(parsed._tag).toBe("Ranges")
    expect(parsed._tag === "Ranges" && parsed.ranges.length).toBe(2 + 1 + 1 + 4)
    expect(rule(["127.0.0.1", "::1"])._tag).toBe("Ranges")
  })

  it("refuses true, negative or fractional counts and anything else, saying what it got", () => {
    for (const setting of [true, "true", -1, 1.5, "1.5", "loopback, 1", "proxy.internal", "10.0.0.0/99", "yes"]) {
      const parsed = parseTrustProxy(setting)
      expect(Either.isLeft(parsed), String(setting)).toBe(true)
    }
    expect(Either.getLeft(parseTrustProxy("loopback,proxy.internal"))).toEqual(
      expect.objectContaining({ value: expect.stringContaining("\"proxy.internal\" is not") })
    )
  })
})
