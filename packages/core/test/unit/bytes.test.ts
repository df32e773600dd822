import { describe, expect, it } from "@effect/vitest"
import { createHash, createHmac, randomBytes as nodeRandomBytes } from "node:crypto"
import {
  concatBytes,
  constantTimeEqual,
  fromBase64,
  fromBase64Url,
  hmacSha256,
  hmacSha256With,
  sha256Hex,
  toBase64,
  toBase64Url,
  utf8Bytes,
  utf8Text
} from "../../src/platform/bytes"

/** Core's web-standard bytes give what node:crypto and Buffer gave before (stored hashes and links keep working). */
describe("platform/bytes against node:crypto and Buffer", () => {
  const texts = ["", "abc", "ação — 証明書 🎓", "x".repeat(1000)]

  it("SHA-256 and HMAC-SHA-256 are node:crypto's", () => {
    for (const text of texts) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"))
      const key = nodeRandomBytes(32)
      const expected = createHmac("sha256", key).update(text).digest("base64url")
      expect(toBase64Url(hmacSha256(new Uint8Array(key), text))).toBe(expected)
      const keyed = hmacSha256With(new Uint8Array(key))
      expect(toBase64Url(keyed(text))).toBe(expected)
      expect(toBase64Url(keyed(text))).toBe(expected) // the prepared key is reused, not consumed
    }
  })

  it("base64 and base64url are Buffer's, both ways", () => {
    for (let length = 0; length < 40; length++) {
      const bytes = new Uint8Array(nodeRandomBytes(length))
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"))
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"))
      expect(fromBase64(Buffer.from(bytes).toString("base64"))).toEqual(bytes)
      expect(fromBase64Url(Buffer.from(bytes).toString("base64url"))).toEqual(bytes)
    }
    expect(utf8Text(fromBase64("aGVs bG8\n")!)).toBe("hello") // spaces and missing padding, as Buffer
    expect(fromBase64("a")).toBeUndefined()
    expect(fromBase64Url("a")).toBeUndefined()
  })

  it("compares equal bytes only, and concatenates and round-trips UTF-8", () => {
    expect(constantTimeEqual(utf8Bytes("abc"), utf8Bytes("abc"))).toBe(true)
    expect(constantTimeEqual(utf8Bytes("abc"), utf8Bytes("abd"))).toBe(false)
    expect(constantTimeEqual(utf8Bytes("abc"), utf8Bytes("abcd"))).toBe(false)
    expect(utf8Text(concatBytes([utf8Bytes("ação "), utf8Bytes("🎓")]))).toBe("ação 🎓")
  })
})
