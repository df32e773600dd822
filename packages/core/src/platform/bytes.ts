import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { Either, Encoding } from "effect"

/**
 * Bytes, hashes and encodings on web standards only (core runs on any runtime, so no `node:crypto`
 * or `Buffer`): SHA-256 and HMAC-SHA-256 are synchronous (`@noble/hashes`), as the call sites need
 * them inside pure functions; randomness comes from `crypto.getRandomValues`.
 */
const encoder = new TextEncoder()
const decoder = new TextDecoder()

export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text)
export const utf8Text = (bytes: Uint8Array): string => decoder.decode(bytes)

const bytesOf = (input: string | Uint8Array) => typeof input === "string" ? encoder.encode(input) : input

export const sha256Bytes = (input: string | Uint8Array): Uint8Array => sha256(bytesOf(input))
/** Lower-case hex SHA-256, as `createHash("sha256").update(text).digest("hex")`. */
export const sha256Hex = (input: string | Uint8Array): string => Encoding.encodeHex(sha256Bytes(input))
export const hmacSha256 = (key: Uint8Array, message: string | Uint8Array): Uint8Array =>
  hmac(sha256, key, bytesOf(message))

/** HMAC-SHA-256 under one key, the key's pads hashed once (a token check per request). */
export const hmacSha256With = (key: Uint8Array) => {
  const keyed = hmac.create(sha256, key)
  return (message: string | Uint8Array): Uint8Array => keyed.clone().update(bytesOf(message)).digest()
}

/** Compares in time that depends on the length only, not on where the first difference is. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

export const randomBytes = (length: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(length))

/** Concatenates chunks (as `Buffer.concat`). */
export const concatBytes = (chunks: ReadonlyArray<Uint8Array>): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/**
 * Reads a body of at most `limit` bytes; undefined as soon as it grows past it (the rest is not read:
 * leaving the loop cancels the stream), so a body that never ends costs at most `limit` bytes.
 */
export const readAtMost = async (
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number
): Promise<Uint8Array<ArrayBuffer> | undefined> => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return concatBytes(chunks)
}

export const toBase64 = (bytes: Uint8Array): string => Encoding.encodeBase64(bytes)
export const toBase64Url = (input: string | Uint8Array): string => Encoding.encodeBase64Url(input)

/** Base64 as `Buffer.from(text, "base64")` reads it: spaces ignored, padding optional; undefined when invalid. */
export const fromBase64 = (text: string): Uint8Array | undefined => {
  const compact = text.replace(/\s+/g, "").replace(/=+$/, "")
  if (compact.length % 4 === 1) return undefined
  return Either.getOrUndefined(Encoding.decodeBase64(compact.padEnd(Math.ceil(compact.length / 4) * 4, "=")))
}

/** Base64url (padding optional); undefined when invalid. */
export const fromBase64Url = (text: string): Uint8Array | undefined =>
  Either.getOrUndefined(Encoding.decodeBase64Url(text))
