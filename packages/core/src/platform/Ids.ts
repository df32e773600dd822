import { Clock, Context, Effect, Layer } from "effect"
import { toBase64Url } from "./bytes"

/** UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits, so ids sort by creation time. */
export const uuidV7 = (unixMillis: number, random: Uint8Array): string => {
  const bytes = new Uint8Array(16)
  bytes.set(random.subarray(0, 10), 6)
  let ms = unixMillis
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export class Ids extends Context.Tag("@roda/core/Ids")<Ids, {
  readonly next: Effect.Effect<string>
  /** A URL-safe random secret (links, tokens). */
  readonly secret: (bytes?: number) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.succeed(Ids, {
    next: Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => Effect.sync(() => uuidV7(now, crypto.getRandomValues(new Uint8Array(10))))
    ),
    secret: (bytes = 32) => Effect.sync(() => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes))))
  })
}
