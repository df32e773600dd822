import { Chunk, Effect, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BlobStore } from "../../src/platform/BlobStore"
import { BLOB_CHUNK_SIZE } from "../../src/platform/databaseBlobStore"
import { startRoda } from "../support/harness"
import { query } from "../support/sql"
import { blobStoreContract } from "./contract"

// On PostgreSQL two Roda instances share the file's database; on in-memory PGlite each has its own.
blobStoreContract("database", {
  location: async () => ({ _tag: "Database" }),
  shared: process.env.DATABASE_URL !== undefined,
  pieces: true,
  // On PGlite the database is in this process's memory: it grows by what is written.
  streams: process.env.DATABASE_URL !== undefined,
  part: BLOB_CHUNK_SIZE,
  // Chunks of no file: those of a write that failed, had its transaction not rolled back.
  leftovers: async (roda) =>
    Number(
      (await query<{ n: string }>(
        roda,
        (sql) =>
          sql`SELECT count(*) AS n FROM blob_chunks c WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.id = c.blob_id)`
      ))[0]!.n
    )
})

describe("database BlobStore: chunks", () => {
  const roda = startRoda({ blobStore: { _tag: "Database" }, runJobs: false })
  beforeAll(() => roda.ready())
  afterAll(() => roda.dispose())
  const withStore = <A>(f: (store: BlobStore["Type"]) => Effect.Effect<A>) =>
    roda.runtime.runPromise(Effect.flatMap(BlobStore, f))
  const chunksOf = (key: string) =>
    query<{ seq: number; length: number }>(
      roda,
      (sql) =>
        sql`SELECT c.seq, length(c.data) AS length FROM blob_chunks c JOIN blobs b ON b.id = c.blob_id
        WHERE b.key = ${key} ORDER BY c.seq`
    )
  const allChunks = async () =>
    Number((await query<{ n: string }>(roda, (sql) => sql`SELECT count(*) AS n FROM blob_chunks`))[0]!.n)

  it("keeps a file as 256 KB rows and reads it a row at a time", async () => {
    const key = `tests/chunks/${crypto.randomUUID()}.pdf`
    const size = 3 * BLOB_CHUNK_SIZE + 100
    await withStore((store) => store.put(key, new Uint8Array(randomBytes(size)), "application/pdf"))
    expect(await chunksOf(key)).toEqual([
      { seq: 0, length: BLOB_CHUNK_SIZE },
      { seq: 1, length: BLOB_CHUNK_SIZE },
      { seq: 2, length: BLOB_CHUNK_SIZE },
      { seq: 3, length: 100 }
    ])
    const pieces = await withStore((store) =>
      Effect.flatMap(store.get(key), (found) => Stream.runCollect(Option.getOrThrow(found).stream))
    )
    expect(Chunk.toReadonlyArray(pieces).map((piece) => piece.length)).toEqual([
      BLOB_CHUNK_SIZE,
      BLOB_CHUNK_SIZE,
      BLOB_CHUNK_SIZE,
      100
    ])
  })

  it("leaves no chunk behind when a file is rewritten (even by racing writers) or removed", async () => {
    const before = await allChunks()
    const key = `tests/chunks/${crypto.randomUUID()}.png`
    const writes = Array.from({ length: 6 }, (_, n) => new Uint8Array(randomBytes(BLOB_CHUNK_SIZE + n * 1000)))
    await Promise.all(writes.map((bytes) => withStore((store) => store.put(key, bytes, "image/png"))))
    expect(await chunksOf(key)).toHaveLength(2)
    expect(await allChunks()).toBe(before + 2)
    const kept = await withStore((store) =>
      Effect.flatMap(store.get(key), (found) => Stream.runCollect(Option.getOrThrow(found).stream))
    )
    const bytes = Buffer.concat(Chunk.toReadonlyArray(kept))
    expect(writes.some((written) => Buffer.from(written).equals(bytes))).toBe(true)
    await withStore((store) => store.remove(key))
    expect(await allChunks()).toBe(before)
  })
})
