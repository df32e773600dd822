import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema, Stream } from "effect"
import { decodeRows } from "../domain/Rows"
import { transactional } from "../sql/transaction"
import { forEachPart } from "./blobParts"
import { BlobStore, checkedKey, type StoredBlob } from "./BlobStore"

/** Bytes per `blob_chunks` row: a read holds one chunk at a time, a write sends one per statement. */
export const BLOB_CHUNK_SIZE = 256 * 1024

const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }))
const decodeChunks = decodeRows(Schema.Struct({ data: Schema.Uint8ArrayFromSelf }))
/** `size` is a bigint column: text or a bigint, as the driver gives it. */
const decodeBlobs = decodeRows(Schema.Struct({
  id: Schema.String,
  contentType: Schema.String,
  size: Schema.Union(Schema.String, Schema.Number, Schema.BigIntFromSelf)
}))

/**
 * Files in the database itself (tables `blobs` and `blob_chunks`, migration 0034), so every process
 * on the database sees them: PostgreSQL or PGlite alike. A write is one transaction (a savepoint in
 * the caller's) that holds the key's lock while its stream runs, inserting each chunk as it fills; a
 * read finds the key's current content and streams it chunk by chunk, a query each.
 */
export const databaseBlobStore = Layer.effect(
  BlobStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const orDie = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
    // Writers of one key take turns: each drops the chunks of the content it replaces.
    const lockKey = (key: string) => sql`SELECT pg_advisory_xact_lock(hashtext(${`blob:${key}`}))`
    const currentId = (key: string) =>
      Effect.map(
        sql`SELECT id FROM blobs WHERE key = ${key}`.pipe(Effect.flatMap(decodeIds)),
        (rows) => Option.fromNullable(rows[0]?.id)
      )
    const dropChunks = (id: Option.Option<string>) =>
      Option.isSome(id) ? sql`DELETE FROM blob_chunks WHERE blob_id = ${id.value}` : Effect.void

    // The chunks are inserted as the stream fills them, before the `blobs` row that makes them the
    // key's content: a stream that fails midway rolls its chunks back and the previous content stays.
    const putStream = (key: string, bytes: Stream.Stream<Uint8Array>, contentType: string) =>
      transactional(sql)(Effect.gen(function*() {
        checkedKey(key)
        yield* lockKey(key)
        const previous = yield* currentId(key)
        const id = crypto.randomUUID()
        const size = yield* forEachPart(bytes, BLOB_CHUNK_SIZE, (data, seq) =>
          data.length === 0
            ? Effect.void
            : sql`INSERT INTO blob_chunks (blob_id, seq, data) VALUES (${id}, ${seq}, ${data})`.pipe(orDie))
        yield* sql`
          INSERT INTO blobs (key, id, content_type, size) VALUES (${key}, ${id}, ${contentType}, ${size})
          ON CONFLICT (key) DO UPDATE
            SET id = EXCLUDED.id, content_type = EXCLUDED.content_type, size = EXCLUDED.size, created_at = now()`
        yield* dropChunks(previous)
        return size
      })).pipe(orDie)

    // One piece: its chunks are views of `bytes`, never copied.
    const put = (key: string, bytes: Uint8Array, contentType: string) =>
      Effect.asVoid(putStream(key, Stream.make(bytes), contentType))

    const chunk = (id: string, seq: number) =>
      sql`SELECT data FROM blob_chunks WHERE blob_id = ${id} AND seq = ${seq}`.pipe(
        Effect.flatMap(decodeChunks),
        Effect.flatMap((rows) =>
          rows[0] === undefined
            // Only a rewrite that committed while this read ran drops chunks it still needed.
            ? Effect.dieMessage(`Blob content ${id} was replaced while it was read`)
            : Effect.succeed(rows[0].data)
        ),
        orDie
      )

    const get = (key: string) =>
      Effect.suspend(() =>
        sql`
          SELECT id, content_type, size FROM blobs WHERE key = ${checkedKey(key)}`
      ).pipe(
        Effect.flatMap(decodeBlobs),
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (row): StoredBlob => {
            const size = Number(row.size)
            const chunks = Math.ceil(size / BLOB_CHUNK_SIZE)
            return {
              contentType: row.contentType,
              size,
              stream: Stream.mapEffect(Stream.range(0, chunks - 1), (seq) => chunk(row.id, seq))
            }
          })
        ),
        orDie
      )

    const remove = (key: string) =>
      transactional(sql)(Effect.gen(function*() {
        yield* lockKey(checkedKey(key))
        const previous = yield* currentId(key)
        yield* sql`DELETE FROM blobs WHERE key = ${key}`
        yield* dropChunks(previous)
      })).pipe(orDie)

    return BlobStore.of({ put, get, remove, putStream })
  })
)
