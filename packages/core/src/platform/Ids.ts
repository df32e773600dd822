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

/**
 * Ids made by one process increase strictly, also within a millisecond (RFC 9562 §6.2, method 1):
 * the 12 bits after the version hold a counter, seeded at random below 2048 on each new
 * millisecond and stepped by one for each further id of that millisecond. "Newest first by id"
 * lists therefore keep creation order. When the counter runs out, or the clock steps back, the
 * ids go on from the last millisecond used, so the order holds.
 */
export const monotonicUuidV7 = () => {
  let lastMillis = -1
  let counter = 0
  return (unixMillis: number, random: Uint8Array): string => {
    const seed = ((random[0]! << 8) | random[1]!) & 0x7ff
    if (unixMillis > lastMillis) {
      lastMillis = unixMillis
      counter = seed
    } else if (counter < 0xfff) {
      counter++
    } else {
      lastMillis++
      counter = seed
    }
    const bytes = Uint8Array.from(random)
    bytes[0] = counter >> 8
    bytes[1] = counter & 0xff
    return uuidV7(lastMillis, bytes)
  }
}

export class Ids extends Context.Tag("@roda/core/Ids")<Ids, {
  readonly next: Effect.Effect<string>
  /** A URL-safe random secret (links, tokens). */
  readonly secret: (bytes?: number) => Effect.Effect<string>
}>() {
  static readonly layer = Layer.sync(Ids, () => {
    const nextId = monotonicUuidV7()
    return {
      next: Effect.flatMap(
        Clock.currentTimeMillis,
        (now) => Effect.sync(() => nextId(now, idRandomness()))
      ),
      secret: (bytes = 32) => Effect.sync(() => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes))))
    }
  })
}
