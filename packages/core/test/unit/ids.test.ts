import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { isUuid } from "../../src/domain/Ids"
import { Ids, monotonicUuidV7, uuidV7 } from "../../src/platform/Ids"

const hex = (id: string) => id.replace(/-/g, "")
const timestampOf = (id: string) => parseInt(hex(id).slice(0, 12), 16)
const versionOf = (id: string) => parseInt(hex(id)[12]!, 16)
/** The two high bits of byte 8: 0b10 for the RFC 9562 variant. */
const variantOf = (id: string) => parseInt(hex(id).slice(16, 18), 16) >> 6

const zeros = new Uint8Array(10)
const ones = new Uint8Array(10).fill(0xff)

describe("uuidV7", () => {
  it.effect("is a UUID with version 7 and the RFC 9562 variant, whatever the random bytes", () =>
    Effect.sync(() => {
      for (const random of [zeros, ones, crypto.getRandomValues(new Uint8Array(10))]) {
        const id = uuidV7(1_700_000_000_000, random)
        expect(isUuid(id)).toBe(true)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        expect(versionOf(id)).toBe(7)
        expect(variantOf(id)).toBe(0b10)
      }
    }))

  it.effect("carries the Unix milliseconds in its first 48 bits", () =>
    Effect.sync(() => {
      for (const millis of [0, 1, 1_700_000_000_123, 2 ** 48 - 1]) {
        expect(timestampOf(uuidV7(millis, zeros))).toBe(millis)
      }
      expect(uuidV7(0, zeros)).toBe("00000000-0000-7000-8000-000000000000")
      expect(uuidV7(2 ** 48 - 1, ones)).toBe("ffffffff-ffff-7fff-bfff-ffffffffffff")
    }))

  it.effect("keeps the random bytes outside the version and variant bits", () =>
    Effect.sync(() => {
      const random = Uint8Array.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22])
      expect(uuidV7(0, random)).toBe("00000000-0000-7234-9678-9abcdef01122")
    }))

  it.effect("sorts by time, as text, whatever the random bytes", () =>
    Effect.sync(() => {
      const ids = [0, 1, 255, 256, 65_535, 1_700_000_000_000, 1_700_000_000_001, 2 ** 41]
        .map((millis, i) => uuidV7(millis, i % 2 === 0 ? ones : zeros))
      expect([...ids].sort()).toEqual(ids)
    }))
})

describe("monotonicUuidV7", () => {
  const random = () => crypto.getRandomValues(new Uint8Array(10))
  const strictlyIncreasing = (ids: ReadonlyArray<string>) => ids.every((id, i) => i === 0 || id > ids[i - 1]!)

  it.effect("increases strictly within one millisecond, in the order the ids were made", () =>
    Effect.sync(() => {
      const next = monotonicUuidV7()
      const ids = Array.from({ length: 2000 }, () => next(1_700_000_000_000, random()))
      expect(strictlyIncreasing(ids)).toBe(true)
      expect(new Set(ids.map(timestampOf))).toEqual(new Set([1_700_000_000_000]))
      expect(ids.every((id) => versionOf(id) === 7 && variantOf(id) === 0b10)).toBe(true)
    }))

  it.effect("goes on into the next millisecond when one millisecond's counter runs out", () =>
    Effect.sync(() => {
      const next = monotonicUuidV7()
      const ids = Array.from({ length: 10_000 }, () => next(1_700_000_000_000, ones))
      expect(strictlyIncreasing(ids)).toBe(true)
      expect(timestampOf(ids.at(-1)!)).toBeGreaterThan(1_700_000_000_000)
      expect(timestampOf(next(1_700_000_000_100, ones))).toBe(1_700_000_000_100)
    }))

  it.effect("keeps increasing when the clock steps back", () =>
    Effect.sync(() => {
      const next = monotonicUuidV7()
      const ids = [5_000, 4_000, 4_999, 5_000, 5_001].map((millis) => next(millis, random()))
      expect(strictlyIncreasing(ids)).toBe(true)
      expect(timestampOf(ids[4]!)).toBe(5_001)
    }))
})

describe("Ids", () => {
  it.effect("next takes its time from the Clock", () =>
    Effect.gen(function*() {
      const ids = yield* Ids
      yield* TestClock.setTime(1_700_000_000_000)
      const first = yield* ids.next
      yield* TestClock.adjust("5 millis")
      const second = yield* ids.next
      expect(timestampOf(first)).toBe(1_700_000_000_000)
      expect(timestampOf(second)).toBe(1_700_000_000_005)
      expect(second > first).toBe(true)
      expect(versionOf(first)).toBe(7)
      expect(variantOf(second)).toBe(0b10)
    }).pipe(Effect.provide(Ids.layer)))

  it.effect("next is unique within one millisecond", () =>
    Effect.gen(function*() {
      const ids = yield* Ids
      const many = yield* Effect.all(Array.from({ length: 1000 }, () => ids.next))
      expect(new Set(many).size).toBe(1000)
      expect(new Set(many.map(timestampOf)).size).toBe(1)
      expect([...many].sort()).toEqual(many)
    }).pipe(Effect.provide(Ids.layer)))

  it.effect("secret is URL-safe and random", () =>
    Effect.gen(function*() {
      const ids = yield* Ids
      const a = yield* ids.secret()
      const b = yield* ids.secret()
      expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(a).not.toBe(b)
      expect(yield* ids.secret(16)).toMatch(/^[A-Za-z0-9_-]{22}$/)
    }).pipe(Effect.provide(Ids.layer)))
})
