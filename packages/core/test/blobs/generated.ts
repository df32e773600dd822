import { Effect, Stream } from "effect"
import { createHash } from "node:crypto"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/**
 * `size` bytes of a seeded xorshift sequence in pieces of `piece` bytes, each made only when the
 * stream pulls it (so the whole is never in memory), with the SHA-256 of all the bytes emitted so far
 * and an `onPiece` call after each piece, given the bytes emitted so far.
 */
export const generatedStream = (
  size: number,
  piece: number,
  seed: number,
  onPiece: (emitted: number) => void = () => undefined
) => {
  const hash = createHash("sha256")
  let state = seed | 1
  function* pieces() {
    for (let emitted = 0; emitted < size;) {
      const length = Math.min(piece, size - emitted)
      const words = new Uint32Array(Math.ceil(length / 4))
      for (let i = 0; i < words.length; i++) {
        state ^= state << 13
        state ^= state >>> 17
        state ^= state << 5
        words[i] = state >>> 0
      }
      const bytes = new Uint8Array(words.buffer, 0, length)
      hash.update(bytes)
      emitted += length
      yield bytes
      onPiece(emitted)
    }
  }
  return {
    // One piece a pull: `fromIterable` would pull thousands of pieces ahead.
    stream: Stream.fromIteratorSucceed(pieces(), 1),
    /** The hash of the bytes emitted, once the stream has run. */
    digest: () => hash.digest("hex")
  }
}

/** The SHA-256 of a stream's bytes, and their count, never holding more than a piece. */
export const digestOf = (stream: Stream.Stream<Uint8Array>) =>
  Effect.suspend(() => {
    const hash = createHash("sha256")
    let size = 0
    return Stream.runForEach(stream, (piece) =>
      Effect.sync(() => {
        hash.update(piece)
        size += piece.length
      })).pipe(Effect.map(() => ({ digest: hash.digest("hex"), size })))
  })

/** `gc()`, exposed without starting node with --expose-gc. */
const gc: () => void = (() => {
  setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

/**
 * What this process holds now (the JS heap and ArrayBuffers, Buffers among them), after a full GC.
 * Twice: V8 frees the memory of dead ArrayBuffers on another thread after a GC, done by the next.
 */
export const memoryInUse = () => {
  gc()
  gc()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
}
