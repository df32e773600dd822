import QRCode from "qrcode"
import { concatBytes, fromBase64Url, utf8Bytes } from "../platform/bytes"

/**
 * Ticket codes: 80 random bits in Crockford's base32 (no I, L, O, U), 16 characters, unguessable and
 * not derived from any id; unique per event (an index). Reading a typed code forgives case, spaces,
 * dashes and the look-alikes I/L (1) and O (0).
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** A code from the 10 bytes of a base64url secret (`Ids.secret(10)`). */
export const ticketCodeOf = (secret: string): string => {
  const random = fromBase64Url(secret)
  if (random === undefined || random.length < 10) throw new Error("a ticket code needs 10 random bytes")
  let bits = 0n
  for (const byte of random.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte)
  let out = ""
  for (let i = 15; i >= 0; i--) out += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)]
  return out
}

/** The canonical form of a typed code, or undefined when it cannot be one. */
export const normalizeTicketCode = (typed: string): string | undefined => {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0")
  return compact.length === 16 && [...compact].every((char) => ALPHABET.includes(char)) ? compact : undefined
}

/** `XXXX-XXXX-XXXX-XXXX`, as printed in e-mails (dashes are ignored when read back). */
export const groupedCode = (code: string) => code.replace(/(.{4})(?=.)/g, "$1-")

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const uint32 = (value: number) =>
  new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff])

const chunk = (type: string, data: Uint8Array) => {
  const typed = concatBytes([utf8Bytes(type), data])
  return concatBytes([uint32(data.length), typed, uint32(crc32(typed))])
}

/**
 * zlib data in stored (uncompressed) deflate blocks: no compressor is needed on any runtime, and a
 * QR image of a few hundred pixels stays a few tens of kilobytes.
 */
const zlibStored = (data: Uint8Array) => {
  const blocks: Array<Uint8Array> = [new Uint8Array([0x78, 0x01])]
  for (let offset = 0; offset < data.length || offset === 0; offset += 65535) {
    const size = Math.min(65535, data.length - offset)
    const last = offset + size >= data.length ? 1 : 0
    blocks.push(new Uint8Array([last, size & 0xff, size >>> 8, ~size & 0xff, (~size >>> 8) & 0xff]))
    blocks.push(data.subarray(offset, offset + size))
    if (size === 0) break
  }
  let a = 1
  let b = 0
  for (const byte of data) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  blocks.push(uint32(((b << 16) | a) >>> 0))
  return concatBytes(blocks)
}

/** The QR code of `text` as a black-on-white PNG (1 bit per pixel, `scale` pixels a module, 4 of quiet zone). */
export const qrPng = (text: string, scale = 6): Uint8Array => {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" })
  const modules = qr.modules.size
  const quiet = 4
  const side = (modules + quiet * 2) * scale
  const rowBytes = Math.ceil(side / 8)
  const raw = new Uint8Array((rowBytes + 1) * side)
  for (let y = 0; y < side; y++) {
    const row = Math.floor(y / scale) - quiet
    for (let x = 0; x < side; x++) {
      const column = Math.floor(x / scale) - quiet
      const dark = row >= 0 && row < modules && column >= 0 && column < modules && qr.modules.get(row, column) === 1
      // grayscale 1 bit: 1 is white
      const at = y * (rowBytes + 1) + 1 + (x >> 3)
      if (!dark) raw[at] = raw[at]! | (0x80 >> (x & 7))
    }
  }
  const header = concatBytes([uint32(side), uint32(side), new Uint8Array([1, 0, 0, 0, 0])])
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlibStored(raw)),
    chunk("IEND", new Uint8Array(0))
  ])
}
