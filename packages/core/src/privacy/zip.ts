import { Chunk, Effect, Stream } from "effect"
import { Zip, ZipDeflate } from "fflate"

/** One file of a ZIP: its name and its bytes as they come. */
export interface ZipEntry<E, R> {
  readonly name: string
  readonly bytes: Stream.Stream<Uint8Array, E, R>
}

/** ZIP's (MS-DOS) times run from 1980 to 2107; fflate writes 1980 to 2099. */
const ZIP_FIRST_TIME = Date.UTC(1980, 0, 2)
const ZIP_LAST_TIME = Date.UTC(2099, 11, 31)

/**
 * A ZIP archive of `entries`, written as it is pulled: each entry's bytes are deflated as they come
 * (fflate's synchronous `Zip` and `ZipDeflate`, whose output is taken after every push), so the
 * archive never holds more than an entry's chunk and the deflater's window, whatever its size. Each
 * run of the stream writes a new archive.
 */
export const zipStream = <E, R>(
  entries: ReadonlyArray<ZipEntry<E, R>>,
  modifiedAt: Date
): Stream.Stream<Uint8Array, E, R> =>
  Stream.suspend(() => {
    const zipTime = new Date(Math.min(Math.max(modifiedAt.getTime(), ZIP_FIRST_TIME), ZIP_LAST_TIME))
    const written: Array<Uint8Array> = []
    let failed: Error | null = null
    const zip = new Zip((error, data) => {
      if (error) failed = error
      else written.push(data)
    })
    /** What the archive wrote since the last take. */
    const take = (): Chunk.Chunk<Uint8Array> => {
      if (failed !== null) throw failed
      return Chunk.unsafeFromArray(written.splice(0))
    }
    const entry = ({ bytes, name }: ZipEntry<E, R>) =>
      Stream.unwrap(Effect.sync(() => {
        const file = new ZipDeflate(name, { level: 6 })
        file.mtime = zipTime
        zip.add(file)
        return Stream.concat(
          Stream.mapChunks(bytes, (chunk) => {
            for (const part of chunk) file.push(part)
            return take()
          }),
          Stream.suspend(() => {
            file.push(new Uint8Array(0), true)
            return Stream.fromChunk(take())
          })
        )
      }))
    return Stream.concat(
      Stream.flatMap(Stream.fromIterable(entries), entry),
      Stream.suspend(() => {
        zip.end()
        return Stream.fromChunk(take())
      })
    )
  })

const encoder = new TextEncoder()

/**
 * `records` as a JSON array, one record a line, encoded a chunk of records at a time (a file is never
 * collected whole).
 */
export const jsonArray = <E, R>(records: Stream.Stream<unknown, E, R>): Stream.Stream<Uint8Array, E, R> =>
  Stream.suspend(() => {
    let first = true
    return Stream.concat(
      Stream.mapChunks(records, (chunk) => {
        let text = ""
        for (const record of chunk) {
          text += (first ? "[\n" : ",\n") + JSON.stringify(record)
          first = false
        }
        return text === "" ? Chunk.empty<Uint8Array>() : Chunk.of(encoder.encode(text))
      }),
      Stream.sync(() => encoder.encode(first ? "[]\n" : "\n]\n"))
    )
  })

/** A text file's bytes. */
export const textBytes = (text: string): Stream.Stream<Uint8Array> => Stream.sync(() => encoder.encode(text))
