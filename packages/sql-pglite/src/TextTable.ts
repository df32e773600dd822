/**
 * A map keyed by statement text, for texts of kilobytes that are built afresh for every call.
 *
 * A `Map<string, V>` hashes its key on every lookup, and a string built anew has no hash yet: for
 * an 8 KB statement that is ~21 µs a lookup, a few per cent of a feed page. Here the length picks a
 * short list and the texts are compared, which V8 does by memory compare (~5 µs, the string
 * flattening included, which sending it needs anyway).
 */
export interface TextTable<V> {
  readonly get: (text: string) => V | undefined
  readonly set: (text: string, value: V) => void
  readonly delete: (text: string) => void
  readonly size: () => number
  readonly clear: () => void
}

interface Entry<V> {
  readonly text: string
  value: V
}

export const make = <V>(): TextTable<V> => {
  const byLength = new Map<number, Array<Entry<V>>>()
  let size = 0
  const find = (text: string) => byLength.get(text.length)?.find((entry) => entry.text === text)
  return {
    get: (text) => find(text)?.value,
    set: (text, value) => {
      const found = find(text)
      if (found !== undefined) {
        found.value = value
        return
      }
      const list = byLength.get(text.length)
      if (list === undefined) byLength.set(text.length, [{ text, value }])
      else list.push({ text, value })
      size++
    },
    delete: (text) => {
      const list = byLength.get(text.length)
      const index = list?.findIndex((entry) => entry.text === text) ?? -1
      if (index < 0) return
      list!.splice(index, 1)
      if (list!.length === 0) byLength.delete(text.length)
      size--
    },
    size: () => size,
    clear: () => {
      byLength.clear()
      size = 0
    }
  }
}
