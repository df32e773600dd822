import { Cause, Chunk, Deferred, Effect, Exit, Fiber, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../node/index"
import { blobBytes, BlobStore } from "../../src/platform/BlobStore"
import type { BlobLocation } from "../../src/platform/Options"
import { startRoda } from "../support/harness"
import { digestOf, generatedStream, memoryInUse } from "./generated"

export interface ContractSetup {
  /** The store's location, once whatever it needs (a folder, a server) is ready. */
  readonly location: () => Promise<BlobLocation>
  /** Whether another Roda on the same location sees the same files. */
  readonly shared: boolean
  /** Whether a read hands out the file in several pieces (a store holding it in memory does not). */
  readonly pieces: boolean
  /** Whether a write holds a bounded part of a stream (every store but the one in memory). */
  readonly streams: boolean
  /** The size a store writes in (an S3 part, a database chunk): streams are made longer than it. */
  readonly part: number
  /** What a write that failed may have left on the store's side (temporary files, pending uploads). */
  readonly leftovers?: (roda: Roda) => Promise<number>
  readonly cleanup?: () => Promise<void>
}

const MB = 1024 * 1024

/** What every BlobStore promises (BlobStore.ts), run against one store through the Node platform's choice. */
export const blobStoreContract = (name: string, setup: ContractSetup) =>
  describe(`BlobStore contract: ${name}`, () => {
    let first: Roda
    let second: Roda
    beforeAll(async () => {
      const location = await setup.location()
      first = startRoda({ blobStore: location, runJobs: false })
      second = setup.shared ? startRoda({ blobStore: location, runJobs: false }) : first
      await first.ready()
      await second.ready()
    })
    afterAll(async () => {
      await first?.dispose()
      if (second !== first) await second?.dispose()
      await setup.cleanup?.()
    })

    const withStore = <A>(roda: Roda, f: (store: BlobStore["Type"]) => Effect.Effect<A>) =>
      roda.runtime.runPromise(Effect.flatMap(BlobStore, f))
    const read = (roda: Roda, key: string) =>
      withStore(roda, (store) =>
        Effect.flatMap(store.get(key), (found) =>
          Option.match(found, {
            onNone: () => Effect.succeed(undefined),
            onSome: (blob) =>
              Effect.map(blobBytes(blob), (bytes) => ({ bytes, contentType: blob.contentType, size: blob.size }))
          })))
    const keyOf = (label: string) => `tests/${label}/${crypto.randomUUID()}.bin`

    it("answers nothing for a key never written", async () => {
      expect(await read(first, keyOf("missing"))).toBeUndefined()
    })

    it("gives back the bytes, type and size written, to every process on the store", async () => {
      const key = keyOf("roundtrip")
      const bytes = new Uint8Array(randomBytes(70_000))
      await withStore(first, (store) => store.put(key, bytes, "application/pdf"))
      const got = await read(second, key)
      expect(got?.contentType).toBe("application/pdf")
      expect(got?.size).toBe(bytes.length)
      expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).toBe(true)
    })

    it("replaces a file written again, and keeps an empty file", async () => {
      const key = keyOf("rewrite")
      await withStore(first, (store) => store.put(key, new Uint8Array(randomBytes(600_000)), "image/png"))
      await withStore(second, (store) => store.put(key, new TextEncoder().encode("short"), "text/plain"))
      const got = await read(first, key)
      expect(got).toEqual({ bytes: new TextEncoder().encode("short"), contentType: "text/plain", size: 5 })
      const empty = keyOf("empty")
      await withStore(first, (store) => store.put(empty, new Uint8Array(0), "application/octet-stream"))
      expect(await read(second, empty)).toEqual({
        bytes: new Uint8Array(0),
        contentType: "application/octet-stream",
        size: 0
      })
    })

    it("removes a file, and removing it again (or one never written) is no error", async () => {
      const key = keyOf("remove")
      await withStore(first, (store) => store.put(key, new Uint8Array([1, 2, 3]), "image/jpeg"))
      await withStore(second, (store) => store.remove(key))
      expect(await read(first, key)).toBeUndefined()
      await withStore(first, (store) => store.remove(key))
      await withStore(first, (store) => store.remove(keyOf("never")))
      expect(await read(second, key)).toBeUndefined()
    })

    it("streams a file of several MB in pieces, all of it in order", async () => {
      const key = keyOf("large")
      const bytes = new Uint8Array(randomBytes(5 * MB + 12_345))
      await withStore(first, (store) => store.put(key, bytes, "application/pdf"))
      const pieces = await withStore(second, (store) =>
        Effect.flatMap(store.get(key), (found) =>
          Option.match(found, {
            onNone: () => Effect.dieMessage("the large file is missing"),
            onSome: (blob) => Effect.map(Stream.runCollect(blob.stream), Chunk.toReadonlyArray)
          })))
      expect(Buffer.concat(pieces).equals(Buffer.from(bytes))).toBe(true)
      if (setup.pieces) {
        expect(pieces.length).toBeGreaterThan(4)
        expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(MB)
      }
    }, 60_000)

    const leftovers = async () => (setup.leftovers === undefined ? 0 : setup.leftovers(first))
    const concat = (pieces: ReadonlyArray<Uint8Array>) => new Uint8Array(Buffer.concat(pieces))

    it("writes a stream of many small pieces, answering its size", async () => {
      const key = keyOf("small-pieces")
      // 3,000 pieces of 0 to 199 bytes: about 300 KB, more than a database chunk.
      const pieces = Array.from({ length: 3_000 }, (_, n) => new Uint8Array(randomBytes((n * 7919) % 200)))
      const size = await withStore(first, (store) => store.putStream(key, Stream.fromIterable(pieces), "text/csv"))
      const bytes = concat(pieces)
      expect(size).toBe(bytes.length)
      const got = await read(second, key)
      expect(got?.size).toBe(bytes.length)
      expect(got?.contentType).toBe("text/csv")
      expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).toBe(true)
    })

    it("writes a stream of pieces larger than a chunk or a part, and an empty stream", async () => {
      const key = keyOf("large-pieces")
      const pieces = [1, 600_000, 2 * setup.part + 7, 300_000, 3].map((size) => new Uint8Array(randomBytes(size)))
      const size = await withStore(
        first,
        (store) => store.putStream(key, Stream.fromIterable(pieces), "application/zip")
      )
      const bytes = concat(pieces)
      expect(size).toBe(bytes.length)
      const got = await read(second, key)
      expect(got?.size).toBe(bytes.length)
      expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).toBe(true)
      const empty = keyOf("empty-stream")
      expect(await withStore(first, (store) => store.putStream(empty, Stream.empty, "application/zip"))).toBe(0)
      expect(await read(second, empty)).toEqual({ bytes: new Uint8Array(0), contentType: "application/zip", size: 0 })
      expect(await leftovers()).toBe(0)
    }, 60_000)

    it("replaces a file by a stream, and a streamed file by a put", async () => {
      const key = keyOf("stream-rewrite")
      await withStore(first, (store) => store.put(key, new Uint8Array(randomBytes(700_000)), "image/png"))
      const text = new TextEncoder().encode("a,b\n1,2\n")
      const size = await withStore(
        second,
        (store) => store.putStream(key, Stream.fromIterable([text.subarray(0, 3), text.subarray(3)]), "text/csv")
      )
      expect(size).toBe(text.length)
      expect(await read(first, key)).toEqual({ bytes: text, contentType: "text/csv", size: text.length })
      await withStore(first, (store) => store.put(key, new Uint8Array([7]), "text/plain"))
      expect(await read(second, key)).toEqual({ bytes: new Uint8Array([7]), contentType: "text/plain", size: 1 })
    })

    it("keeps the previous file when a stream fails midway, or its write is interrupted", async () => {
      const key = keyOf("stream-fails")
      const previous = new Uint8Array(randomBytes(400_000))
      await withStore(first, (store) => store.put(key, previous, "application/pdf"))
      // Past a part (S3's upload has begun), a chunk (database rows inserted), a write (a temporary file).
      const begun = new Uint8Array(randomBytes(setup.part + 1))
      const failing = Stream.concat(Stream.make(begun), Stream.dieMessage("the export broke"))
      const exit = await first.runtime.runPromiseExit(
        Effect.flatMap(BlobStore, (store) => store.putStream(key, failing, "application/zip"))
      )
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      const afterFailure = await read(second, key)
      expect(afterFailure?.contentType).toBe("application/pdf")
      expect(Buffer.from(afterFailure!.bytes).equals(Buffer.from(previous))).toBe(true)
      expect(await leftovers()).toBe(0)

      const interrupted = await first.runtime.runPromise(Effect.gen(function*() {
        const store = yield* BlobStore
        const waiting = yield* Deferred.make<void>()
        const hanging = Stream.make(begun).pipe(
          Stream.concat(Stream.execute(Deferred.succeed(waiting, undefined))),
          Stream.concat(Stream.never)
        )
        const fiber = yield* Effect.fork(store.putStream(key, hanging, "application/zip"))
        yield* Deferred.await(waiting)
        return yield* Fiber.interrupt(fiber)
      }))
      expect(Exit.isInterrupted(interrupted)).toBe(true)
      const afterInterruption = await read(second, key)
      expect(afterInterruption?.contentType).toBe("application/pdf")
      expect(Buffer.from(afterInterruption!.bytes).equals(Buffer.from(previous))).toBe(true)
      expect(await leftovers()).toBe(0)
    }, 60_000)

    it("writes a stream made as it runs, of several parts (S3: 20 MB), read back the same", async () => {
      const key = keyOf("generated")
      const size = Math.round(2.5 * setup.part) + 4_321
      const made = generatedStream(size, 100_000, 20)
      expect(await withStore(first, (store) => store.putStream(key, made.stream, "application/zip"))).toBe(size)
      const got = await withStore(second, (store) =>
        Effect.flatMap(store.get(key), (found) =>
          Effect.map(
            digestOf(Option.getOrThrow(found).stream),
            (read) => ({ ...read, size: Option.getOrThrow(found).size })
          )))
      expect(got).toEqual({ digest: made.digest(), size })
      expect(await leftovers()).toBe(0)
    }, 120_000)

    it.runIf(setup.streams)("holds a bounded part of a 64 MB stream while writing it", async () => {
      const key = keyOf("bounded")
      const size = 64 * MB
      const baseline = memoryInUse()
      let peak = 0
      let samples = 0
      // Measured after every 16 MB handed to the store (a full GC first): a store that gathered the
      // stream would hold 48 MB at the third.
      const made = generatedStream(size, 64 * 1024, 64, (emitted) => {
        if (emitted % (16 * MB) !== 0) return
        peak = Math.max(peak, memoryInUse() - baseline)
        samples++
      })
      expect(await withStore(first, (store) => store.putStream(key, made.stream, "application/zip"))).toBe(size)
      expect(samples).toBe(4)
      expect(peak).toBeLessThan(32 * MB)
      const got = await withStore(second, (store) =>
        Effect.flatMap(store.get(key), (found) => digestOf(Option.getOrThrow(found).stream)))
      expect(got).toEqual({ digest: made.digest(), size })
      await withStore(first, (store) =>
        store.remove(key))
    }, 180_000)

    it("refuses a key that could leave its place (a bug, not a client's input)", async () => {
      for (const key of ["../outside", "a/../../b", "/absolute", ""]) {
        const exit = await first.runtime.runPromiseExit(
          Effect.flatMap(BlobStore, (store) => store.put(key, new Uint8Array([1]), "text/plain"))
        )
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        const read = await first.runtime.runPromiseExit(Effect.flatMap(BlobStore, (store) => store.get(key)))
        expect(Exit.isFailure(read) && Cause.isDie(read.cause)).toBe(true)
      }
    })
  })
