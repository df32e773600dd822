import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { inflateSync } from "node:zlib"
import { findFont } from "../../src/certificates/fonts"

/**
 * WOFF 1.0 to the plain TrueType/OpenType file it wraps (tables inflated): parsed once per process,
 * it makes every PDF embed (fontkit) several times cheaper than reading the WOFF each time.
 */
export const woffToSfnt = (woff: Uint8Array): Uint8Array => {
  const b = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength)
  if (b.toString("latin1", 0, 4) !== "wOFF") return woff
  const flavor = b.readUInt32BE(4)
  const numTables = b.readUInt16BE(12)
  const tables = Array.from({ length: numTables }, (_, i) => {
    const o = 44 + i * 20
    const offset = b.readUInt32BE(o + 4)
    const compLength = b.readUInt32BE(o + 8)
    const origLength = b.readUInt32BE(o + 12)
    const raw = b.subarray(offset, offset + compLength)
    return {
      tag: b.subarray(o, o + 4),
      checksum: b.readUInt32BE(o + 16),
      data: compLength < origLength ? inflateSync(raw) : Buffer.from(raw)
    }
  })
  let searchRange = 1
  let entrySelector = 0
  while (searchRange * 2 <= numTables) {
    searchRange *= 2
    entrySelector++
  }
  const header = Buffer.alloc(12 + 16 * numTables)
  header.writeUInt32BE(flavor, 0)
  header.writeUInt16BE(numTables, 4)
  header.writeUInt16BE(searchRange * 16, 6)
  header.writeUInt16BE(entrySelector, 8)
  header.writeUInt16BE(numTables * 16 - searchRange * 16, 10)
  const parts: Array<Buffer> = [header]
  let offset = header.length
  tables.forEach((table, i) => {
    const o = 12 + i * 16
    table.tag.copy(header, o)
    header.writeUInt32BE(table.checksum, o + 4)
    header.writeUInt32BE(offset, o + 8)
    header.writeUInt32BE(table.data.length, o + 12)
    const pad = (4 - (table.data.length % 4)) % 4
    parts.push(table.data, Buffer.alloc(pad))
    offset += table.data.length + pad
  })
  return new Uint8Array(Buffer.concat(parts))
}

const require = createRequire(import.meta.url)
const loaded = new Map<string, Promise<Uint8Array>>()

/** The bytes of a font file as TrueType/OpenType, read and unwrapped once per process. */
export const fontBytes = (specifier: string): Promise<Uint8Array> => {
  let bytes = loaded.get(specifier)
  if (bytes === undefined) {
    bytes = readFile(require.resolve(specifier)).then((buffer) => woffToSfnt(new Uint8Array(buffer)))
    loaded.set(specifier, bytes)
    bytes.catch(() => loaded.delete(specifier))
  }
  return bytes
}

/** Both faces of a catalogue font; fails for an unknown id. */
export const loadFont = async (id: string) => {
  const font = findFont(id)
  if (font === undefined) throw new Error(`Unknown font ${id}`)
  const [regular, bold] = await Promise.all([fontBytes(font.regular), fontBytes(font.bold)])
  return { font, regular, bold }
}
