import { Clock, Context, Effect, Layer } from "effect"
import { toBase64Url } from "./bytes"

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

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
  let text = ""
  for (let i = 0; i < 16; i++) text += (i === 4 || i === 6 || i === 8 || i === 10 ? "-" : "") + HEX[bytes[i]!]
  return text
}

/**
 * The random part of ids, drawn from the system's generator 4 KB at a time, as Node's own
 * `randomUUID` buffers it: a `getRandomValues` call per id cost ~10 µs, a few per cent of a write.
 */
const POOL_BYTES = 4096
let pool = new Uint8Array(0)
let used = 0
const idRandomness = (): Uint8Array => {
  if (used + 10 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES))
    used = 0
  }
  used += 10
  return pool.subarray(used - 10, used)
}

export class Ids extends Context.Tag("@roda/core/Ids")<Ids, {
  readonly next: Effect.Effect<string>
  /** A URL-safe random secret (links, tokens). */
  readonly secret: (bytes?: number) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.succeed(Ids, {
    next: Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => Effect.sync(() => uuidV7(now, idRandomness()))
    ),
    secret: (bytes = 32) => Effect.sync(() => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes))))
  })
}
