import { Chunk, Effect, Stream } from "effect"
import { unzipSync } from "fflate"
import { describe, expect, it } from "vitest"
import { collectBytes } from "../../src/platform/BlobStore"
import { jsonArray, textBytes, zipStream } from "../../src/privacy/zip"

/** Issue 56, item 3: the export's ZIP, written as its records are pulled. */
describe("zipStream", () => {
  it("writes README.txt and JSON arrays that unzip and parse, empty ones included", async () => {
    const records = Stream.fromIterable(Array.from({ length: 2_500 }, (_, i) => ({ id: i, body: `post ${i} ✓` })))
      .pipe(Stream.rechunk(100))
    const bytes = await Effect.runPromise(collectBytes(zipStream([
      { name: "README.txt", bytes: textBytes("Olá, dados") },
      { name: "posts.json", bytes: jsonArray(records) },
      { name: "empty.json", bytes: jsonArray(Stream.empty) }
    ], new Date(Date.UTC(2030, 0, 1)))))
    const entries = unzipSync(bytes)
    expect(Object.keys(entries)).toEqual(["README.txt", "posts.json", "empty.json"])
    expect(new TextDecoder().decode(entries["README.txt"])).toBe("Olá, dados")
    const posts = JSON.parse(new TextDecoder().decode(entries["posts.json"]))
    expect(posts).toHaveLength(2_500)
    expect(posts[2_499]).toEqual({ id: 2_499, body: "post 2499 ✓" })
    expect(JSON.parse(new TextDecoder().decode(entries["empty.json"]))).toEqual([])
  })

  it("pulls records as the archive is read: a consumer that stops early has pulled a bounded part", async () => {
    let pulled = 0
    // a page of 1,000 records at a time, as a keyset reader pulls them
    const records = Stream.fromIterable(Array.from({ length: 100 }, (_, page) => page)).pipe(
      Stream.rechunk(1),
      Stream.mapConcat((page) => {
        pulled += 1_000
        return Array.from({ length: 1_000 }, (_, i) => ({ id: page * 1_000 + i, text: `${Math.random()}`.repeat(4) }))
      }),
      Stream.rechunk(1_000)
    )
    const firstChunks = await Effect.runPromise(
      Stream.runCollect(
        Stream.take(zipStream([{ name: "big.json", bytes: jsonArray(records) }], new Date(Date.UTC(2030, 0, 1))), 3)
      )
    )
    expect(Chunk.size(firstChunks)).toBe(3)
    // three ZIP chunks need a few pages of records, never the 100,000
    expect(pulled).toBeLessThan(20_000)
  })
})
