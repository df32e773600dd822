import { Cause, Chunk, Effect, Exit, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../../node/index"
import { blobBytes, BlobStore } from "../../src/platform/BlobStore"
import type { BlobLocation } from "../../src/platform/Options"
import { startRoda } from "../support/harness"

export interface ContractSetup {
  /** The store's location, once whatever it needs (a folder, a server) is ready. */
  readonly location: () => Promise<BlobLocation>
  /** Whether another Roda on the same location sees the same files. */
  readonly shared: boolean
  /** Whether a read hands out the file in several pieces (a store holding it in memory does not). */
  readonly pieces: boolean
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
