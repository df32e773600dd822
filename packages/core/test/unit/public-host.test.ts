import { describe, expect, it } from "vitest"
import { isPublicHost } from "../../src/oauth/publicHost"

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
