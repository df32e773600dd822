import { Effect, Stream } from "effect"

/**
 * Runs `bytes`, handing `write` its bytes in parts of `partSize` as they fill, in order; the last call
 * (`last` true, and only it) hands what remains, shorter, possibly empty (an empty stream, or one a
 * multiple of `partSize` long). Answers the size of the stream. Incoming pieces may be tiny or huge: at
 * most one part is copied and held at a time; a piece at least a part long is handed on in views, not
 * copied (so a producer must not reuse a piece's memory once emitted, as no Stream producer should).
 */
export const forEachPart = (
  bytes: Stream.Stream<Uint8Array>,
  partSize: number,
  write: (part: Uint8Array, index: number, last: boolean) => Effect.Effect<void>
): Effect.Effect<number> =>
  Effect.suspend(() => {
    let size = 0
    let index = 0
    // What is not yet handed on: a view of one piece (not copied while no other piece joins it), or
    // `filled` bytes of a part being copied together.
    let pending: Uint8Array | undefined
    let buffer: Uint8Array | undefined
    let filled = 0

    const partsOf = (piece: Uint8Array) => {
      const parts: Array<Uint8Array> = []
      if (piece.length === 0) return parts
      size += piece.length
      let offset = 0
      if (pending !== undefined) {
        buffer = new Uint8Array(partSize)
        buffer.set(pending)
        filled = pending.length
        pending = undefined
      }
      if (buffer !== undefined) {
        offset = Math.min(partSize - filled, piece.length)
        buffer.set(piece.subarray(0, offset), filled)
        filled += offset
        if (filled < partSize) return parts
        parts.push(buffer)
        buffer = undefined
        filled = 0
      }
      for (; piece.length - offset >= partSize; offset += partSize) {
        parts.push(piece.subarray(offset, offset + partSize))
      }
      if (offset < piece.length) pending = piece.subarray(offset)
      return parts
    }

    return Stream.runForEach(
      bytes,
      (piece) => Effect.forEach(partsOf(piece), (part) => write(part, index++, false), { discard: true })
    ).pipe(
      Effect.zipRight(
        Effect.suspend(() => write(pending ?? buffer?.subarray(0, filled) ?? new Uint8Array(0), index++, true))
      ),
      Effect.map(() => size)
    )
  })
