import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { failure } from "./errors"
import { cliMessages } from "./messages"
import { isUuid } from "./options"

export type Recipient = { readonly _tag: "Email"; readonly email: string } | {
  readonly _tag: "Profile"
  readonly profileId: string
}

/** The cells of one CSV line (RFC 4180 quotes; `,` or `;` between cells). */
const cellsOf = (line: string): Array<string> => {
  const cells: Array<string> = []
  let cell = ""
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!
    if (quoted) {
      if (char === "\"" && line[i + 1] === "\"") {
        cell += "\""
        i++
      } else if (char === "\"") quoted = false
      else cell += char
    } else if (char === "\"") quoted = true
    else if (char === "," || char === ";") {
      cells.push(cell.trim())
      cell = ""
    } else cell += char
  }
  cells.push(cell.trim())
  return cells
}

const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
const HEADERS = ["email", "e-mail", "profileid", "profile_id", "profile", "id"]

/**
 * Recipients from a CSV file: one per line, an e-mail or a profile id. With a header line, the
 * column named `email` or `profileId` (or `id`) is read; without one, the first column. Blank lines
 * are skipped, repeats kept once.
 */
export const readRecipients = (path: string) =>
  Effect.gen(function*() {
    const content = yield* Effect.tryPromise({
      try: () => readFile(path, "utf8"),
      catch: (error) => failure(cliMessages.csvUnreadable(path, (error as NodeJS.ErrnoException).code ?? String(error)))
    })
    const lines = content.replace(/^\uFEFF/, "").split(/\r?\n/).map((line, i) => ({
      number: i + 1,
      cells: cellsOf(line)
    }))
      .filter((line) => line.cells.some((cell) => cell !== ""))
    let column = 0
    const first = lines[0]
    if (first !== undefined && !first.cells.some((cell) => isEmail(cell) || isUuid(cell))) {
      const named = first.cells.findIndex((cell) => HEADERS.includes(cell.toLowerCase()))
      column = Math.max(0, named)
      lines.shift()
    }
    const seen = new Set<string>()
    const recipients: Array<Recipient> = []
    for (const line of lines) {
      const value = line.cells[column] ?? ""
      const key = value.toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      if (isEmail(value)) recipients.push({ _tag: "Email", email: key })
      else if (isUuid(value)) recipients.push({ _tag: "Profile", profileId: key })
      else return yield* Effect.fail(failure(cliMessages.csvBadEntry(path, line.number, value)))
    }
    if (recipients.length === 0) return yield* Effect.fail(failure(cliMessages.csvEmpty(path)))
    return recipients
  })
