/**
 * CSV as every export writes it (the server's and the CLI's): RFC 4180 fields, CRLF line ends, and
 * text cells a spreadsheet would run as a formula neutralised (OWASP "CSV injection"): a text that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a buyer named
 * `=HYPERLINK("http://evil", "click")` stays text. Numbers and booleans are Roda's own and written
 * as they are (a negative amount stays a number).
 */
export type CsvValue = string | number | boolean | null | undefined

const FORMULA_START = /^[=+\-@\t\r]/

/** One field: `null`/`undefined` empty, text neutralised, quoted when it holds a comma, a quote or a line break. */
export const csvField = (value: CsvValue): string => {
  if (value === null || value === undefined) return ""
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/** One line of fields, CRLF-terminated. */
export const csvLine = (values: ReadonlyArray<CsvValue>): string => values.map(csvField).join(",") + "\r\n"
