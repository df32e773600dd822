import type { HelpDoc } from "@effect/cli"
import type * as Span from "@effect/cli/HelpDoc/Span"
import * as Ansi from "@effect/printer-ansi/Ansi"
import * as AnsiDoc from "@effect/printer-ansi/AnsiDoc"
import * as Doc from "@effect/printer/Doc"

/**
 * Help pages laid out as @effect/cli lays them out, but wrapped at `HELP_WIDTH` columns and coloured
 * only on request. The library's own `HelpDoc.toAnsiText` always writes ANSI escapes and never breaks a
 * line (a text is one unbreakable `Doc.text`). Here every space of a text may break, except inside an
 * option's `[…]`, an argument's `<…>` or a short `(…)`; each text is laid out on its own (a whole page of breakable
 * spaces overflows the printer's stack), and the page is put together as lines.
 */
export const HELP_WIDTH = 100

/** Words (a bracketed `[…]`/`<…>` group, or a short `(…)` one such as `(-c, --community text)`, kept whole) and spaces. */
const TOKENS = /\[[^\]]*\]|<[^>]*>|\([^)\s]*(?:\s[^)\s]*){0,2}\)|\s+|[^\s[<(]+|[[<(]/g

const words = (value: string): AnsiDoc.AnsiDoc =>
  Doc.hcat((value.match(TOKENS) ?? []).map((token) => /^\s+$/.test(token) ? Doc.softLine : Doc.text(token)))

const spanDoc = (span: Span.Span): AnsiDoc.AnsiDoc => {
  switch (span._tag) {
    case "Text":
      return words(span.value)
    case "Sequence":
      return Doc.cat(spanDoc(span.left), spanDoc(span.right))
    case "Strong":
      return Doc.annotate(spanDoc(span.value), Ansi.bold)
    case "Weak":
      return Doc.annotate(spanDoc(span.value), Ansi.blackBright)
    case "Highlight":
      return Doc.annotate(spanDoc(span.value), Ansi.color(span.color))
    case "URI":
      return Doc.annotate(Doc.text(span.value), Ansi.underlined)
  }
}

/** A text wrapped at `width` columns, in bold when `strong`, with ANSI escapes only when `colour`. */
export const spanLines = (span: Span.Span, width: number, colour: boolean, strong = false): Array<string> => {
  const doc = strong ? Doc.annotate(spanDoc(span), Ansi.bold) : spanDoc(span)
  const options = { lineWidth: Math.max(width, 20), ribbonFraction: 1 }
  const text = colour
    ? AnsiDoc.render(doc, { style: "pretty", options })
    : Doc.render(Doc.unAnnotate(doc), { style: "pretty", options })
  return text.split("\n").map((line) => line.trimEnd())
}

/** `lines` indented by `first` on the first line and by as many spaces on the others (blank lines stay blank). */
export const indent = (lines: ReadonlyArray<string>, first: string): Array<string> =>
  lines.map((line, index) => line === "" ? "" : `${index === 0 ? first : " ".repeat(first.length)}${line}`)

/** Blocks one after the other, a blank line between two (as the library's `Sequence`). */
export const joinBlocks = (blocks: ReadonlyArray<ReadonlyArray<string>>): Array<string> =>
  blocks.filter((block) => block.length > 0).flatMap((block, index) => index === 0 ? [...block] : ["", ...block])

/** The lines of a help document that has `width` columns. */
export const helpLines = (doc: HelpDoc.HelpDoc, width: number, colour: boolean): Array<string> => {
  switch (doc._tag) {
    case "Empty":
      return []
    case "Header":
      return spanLines(doc.value, width, colour, true)
    case "Paragraph":
      return spanLines(doc.value, width, colour)
    case "DescriptionList":
      return joinBlocks(doc.definitions.map(([term, definition]) => [
        ...spanLines(term, width, colour, true),
        "",
        ...indent(helpLines(definition, width - 2, colour), "  ")
      ]))
    case "Enumeration":
      return joinBlocks(doc.elements.map((element) => indent(helpLines(element, width - 4, colour), "  - ")))
    case "Sequence":
      return joinBlocks([helpLines(doc.left, width, colour), helpLines(doc.right, width, colour)])
  }
}
