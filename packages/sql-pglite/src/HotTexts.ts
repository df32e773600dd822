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

/**
 * A statement whose text holds this comment is never named: PostgreSQL then plans each execution with
 * its values. For a statement whose best plan depends on them (a LIKE pattern: a trigram index for a
 * rare text, a walk in name order for a common one), the generic plan a named statement falls back to
 * after five executions chose blind (one autocomplete: 1.6 ms planned with its values, 185 ms generic).
 */
export const PLANNED_WITH_VALUES = "/* planned with its values */"

export interface HotTexts {
  /** Counts one more sending of `text`: true when this one makes it hot (its count is then dropped). */
  readonly sent: (text: string) => boolean
}

export const make = (): HotTexts => {
  const seen = TextTable.make<number>()
  return {
    sent: (text) => {
      if (text.includes(PLANNED_WITH_VALUES)) return false
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
