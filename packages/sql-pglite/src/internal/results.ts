import { type messages, type PGlite, type QueryOptions, type Results, types } from "@electric-sql/pglite"

type BackendMessage = messages.BackendMessage
type Parser = (value: string, typeId: number) => unknown

export interface Column {
  readonly name: string
  readonly dataTypeID: number
}

/** The columns of a statement's `RowDescription` among `received`; none when it answers no rows. */
export const columnsOf = (received: ReadonlyArray<BackendMessage>): ReadonlyArray<Column> => {
  const description = received.find((message) => message.name === "rowDescription") as
    | messages.RowDescriptionMessage
    | undefined
  return description?.fields.map(({ dataTypeID, name }) => ({ name, dataTypeID })) ?? []
}

const affectedRows = (commandTag: string) => {
  const words = commandTag.split(" ")
  switch (words[0]) {
    case "INSERT":
      return parseInt(words[2]!, 10)
    case "UPDATE":
    case "DELETE":
    case "COPY":
    case "MERGE":
      return parseInt(words[1]!, 10)
    default:
      return 0
  }
}

/**
 * The result of one prepared statement's execution, whose `columns` were described when it was
 * prepared, as PGlite's `parse.parseResults` gives it. That one copies every parser PGlite knows
 * (about 400 with the array types, in a dictionary-mode object) on each call, 0.1 ms a statement,
 * and then looks each value's parser up in the copy; here each column's parser is looked up once.
 */
export const toResults = (
  received: ReadonlyArray<BackendMessage>,
  columns: ReadonlyArray<Column>,
  parsers: PGlite["parsers"],
  options: QueryOptions | undefined
): Results<object> => {
  const parserOf = columns.map(({ dataTypeID }): Parser | undefined =>
    options?.parsers?.[dataTypeID] ?? parsers[dataTypeID] ?? types.parsers[dataTypeID]
  )
  const parseValue = (value: string | null, i: number) => {
    if (value === null) return null
    const parser = parserOf[i]
    return parser ? parser(value, columns[i]!.dataTypeID) : value
  }
  const arrays = options?.rowMode === "array"
  const rows: Array<any> = []
  for (const message of received) {
    if (message.name === "dataRow") {
      const values = (message as messages.DataRowMessage).fields
      if (arrays) {
        rows.push(values.map(parseValue))
      } else {
        const row: Record<string, unknown> = {}
        for (let i = 0; i < values.length; i++) row[columns[i]!.name] = parseValue(values[i] as string | null, i)
        rows.push(row)
      }
    } else if (message.name === "commandComplete") {
      const text = (message as messages.CommandCompleteMessage).text
      return { rows, fields: columns.slice(), affectedRows: affectedRows(text) }
    }
  }
  return { rows: [], fields: [], affectedRows: 0 }
}
