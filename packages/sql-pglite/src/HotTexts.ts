/**
 * Which statement texts are hot enough to be named (prepared): the policy of both of Roda's
 * drivers (PGlite here, node-postgres in `@roda/core/node`).
 */
import * as TextTable from "./TextTable"

/** A statement is named once it has been sent this many times. */
export const HOT_AFTER = 3
/** At most this many statements are named per database, so text built on the fly cannot grow it. */
export const MAX_NAMED = 2_000
/** Texts counted towards `HOT_AFTER` are forgotten past this many, so one-off texts cannot pile up. */
const MAX_SEEN = 10_000

export interface HotTexts {
  /** Counts one more sending of `text`: true when this one makes it hot (its count is then dropped). */
  readonly sent: (text: string) => boolean
}

export const make = (): HotTexts => {
  const seen = TextTable.make<number>()
  return {
    sent: (text) => {
      const count = (seen.get(text) ?? 0) + 1
      if (count >= HOT_AFTER) {
        seen.delete(text)
        return true
      }
      if (seen.size() >= MAX_SEEN) seen.clear()
      seen.set(text, count)
      return false
    }
  }
}
