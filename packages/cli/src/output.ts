import { Console, Effect } from "effect"

/** A column: its header and how a row shows in it. */
export type Column<A> = readonly [header: string, cell: (row: A) => unknown]

const show = (value: unknown): string => {
  if (value === null || value === undefined || value === "") return "-"
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  return JSON.stringify(value)
}

/** Rows as an aligned text table (a header line, then one line per row). */
export const table = <A>(rows: ReadonlyArray<A>, columns: ReadonlyArray<Column<A>>): string => {
  const cells = rows.map((row) => columns.map(([, cell]) => show(cell(row)).replace(/\s+/g, " ")))
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((line) => line[i]!.length)))
  const line = (values: ReadonlyArray<string>) =>
    values.map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]!))).join("  ")
  return [line(columns.map(([header]) => header)), ...cells.map(line)].join("\n")
}

/** One record as two columns, field and value. */
export const fields = (record: Readonly<Record<string, unknown>>): string => {
  const entries = Object.entries(record)
  const width = Math.max(...entries.map(([key]) => key.length))
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${show(value)}`).join("\n")
}

/** Prints `data` as JSON (`--json`, for scripts) or as the human view on stdout. */
export const print = <A>(json: boolean, data: A, human: (data: A) => string) =>
  json ? Console.log(JSON.stringify(data, null, 2)) : Console.log(human(data))

/** A list's page: its items, and how to ask for the next page when there is one. */
export const printPage = <A>(
  json: boolean,
  page: { readonly items: ReadonlyArray<A>; readonly pagination: { readonly nextCursor: string | null } },
  columns: ReadonlyArray<Column<A>>
) =>
  json
    ? Console.log(JSON.stringify({ data: page.items, nextCursor: page.pagination.nextCursor }, null, 2))
    : Effect.zipRight(
      Console.log(page.items.length === 0 ? "(none)" : table(page.items, columns)),
      page.pagination.nextCursor === null
        ? Effect.void
        : Console.log(`next page: --cursor ${page.pagination.nextCursor}`)
    )
