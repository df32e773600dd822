import { describe, expect, it } from "vitest"
import { isPublicAddress, isPublicHost } from "../../src/platform/publicHost"

const hostOf = (url: string) => new URL(url).hostname

describe("hosts a metadata document may be fetched from", () => {
  it("accepts public names and addresses", () => {
    for (const url of ["https://app.example.com/c", "https://8.8.8.8/c", "https://[2001:db8::1]/c"]) {
      expect(isPublicHost(hostOf(url)), url).toBe(true)
    }
  })

  it("refuses loopback, private, link-local and shared addresses and local names, in any notation", () => {
    const internal = [
      "https://127.0.0.1/c",
      "https://2130706433/c", // 127.0.0.1 as one number
      "https://0x7f.1/c",
      "https://10.1.2.3/c",
      "https://172.20.0.1/c",
      "https://192.168.1.1/c",
      "https://169.254.169.254/c",
      "https://100.64.0.1/c",
      "https://0.0.0.0/c",
      "https://[::1]/c",
      "https://[::ffff:127.0.0.1]/c",
      "https://[fd00::1]/c",
      "https://[fe80::1]/c",
      "https://localhost/c",
      "https://api.localhost/c",
      "https://printer.local/c",
      "https://metadata.google.internal/c",
      "https://intranet/c"
    ]
    for (const url of internal) expect(isPublicHost(hostOf(url)), url).toBe(false)
  })
})

describe("IPv6 forms that carry or translate an IPv4 address", () => {
  // Each is refused as a resolved address (what PublicFetch connects to) and as a literal host.
  const refused: ReadonlyArray<[string, string]> = [
    ["IPv4-mapped loopback, dotted", "::ffff:127.0.0.1"],
    ["IPv4-mapped loopback, hex", "::ffff:7f00:1"],
    ["IPv4-mapped loopback, expanded", "0:0:0:0:0:ffff:7f00:1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped private, hex", "::ffff:c0a8:101"],
    ["IPv4-mapped metadata", "::ffff:169.254.169.254"],
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["IPv4-compatible loopback, hex", "::7f00:1"],
    ["IPv4-compatible private", "::192.168.1.1"],
    ["IPv4-translated", "::ffff:0:127.0.0.1"],
    ["NAT64 well-known prefix, loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 well-known prefix, hex", "64:ff9b::7f00:1"],
    ["NAT64 well-known prefix, public", "64:ff9b::8.8.8.8"],
    ["NAT64 local-use prefix", "64:ff9b:1::a00:1"],
    ["NAT64 local-use prefix, far end", "64:ff9b:1:ffff::1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["6to4 of a private address", "2002:c0a8:101::"],
    ["6to4 of a public address", "2002:808:808::1"],
    ["Teredo", "2001::1"],
    ["Teredo, full", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["unspecified", "::"],
    ["loopback", "::1"],
    ["loopback, expanded", "0:0:0:0:0:0:0:1"],
    ["unique local", "fd12:3456::1"],
    ["link-local with a zone", "fe80::1%eth0"],
    ["site-local", "fec0::1"],
    ["multicast", "ff02::1"],
    ["discard-only", "100::1"],
    ["not an address", "1:2:3:4:5:6:7:8:9"],
    ["two ::", "1::2::3"]
  ]
  for (const [name, address] of refused) {
    it(`refuses ${name} (${address})`, () => {
      expect(isPublicAddress(address)).toBe(false)
      expect(isPublicAddress(address.toUpperCase())).toBe(false)
      if (!address.includes("%") && !name.startsWith("not") && !name.startsWith("two")) {
        expect(isPublicHost(hostOf(`https://[${address}]/c`))).toBe(false)
      }
    })
  }

  it("accepts public IPv6 and the IPv4-mapped form of a public address", () => {
    for (const address of ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "2001:4860::8888"]) {
      expect(isPublicAddress(address), address).toBe(true)
    }
    expect(isPublicHost(hostOf("https://[::ffff:8.8.8.8]/c"))).toBe(true)
  })
})
