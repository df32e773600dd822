import { parse, type PGlite, protocol, type QueryOptions, type Results } from "@electric-sql/pglite"
import * as HotTexts from "../HotTexts"
import * as TextTable from "../TextTable"
import { type Column, columnsOf, toResults } from "./results"

interface Named {
  readonly name: string
  /** The parameter types PostgreSQL inferred when the statement was prepared. */
  readonly types: ReadonlyArray<number>
  /**
   * The columns it answers, described once: PostgreSQL refuses to run a prepared statement whose
   * result would change shape ("cached plan must not change result type"), so they hold.
   */
  readonly columns: ReadonlyArray<Column>
}

/**
 * `pglite.query` parses and plans every statement afresh (it sends them unnamed). For the feed's
 * page, planning is most of the work: 24 ms a page unnamed against 1.6 ms prepared, once PostgreSQL
 * keeps a generic plan. Hot parameterised statements are therefore prepared under a name, once per
 * database, and then only bound and executed, through PGlite's protocol interface, as `pglite.query`
 * does it otherwise (same serializers and parsers, same sync to the file system).
 */
/** One per database: every connection of the session uses the same statements. */
export const namedQuery = (pglite: PGlite) => {
  const hot = HotTexts.make()
  const named = TextTable.make<Named>()
  // The messages go in one call, as a client's socket would send them: PostgreSQL runs them in turn
  // and, after an error, skips to the Sync, so the session is ready again either way. One call a
  // message cost 0.1-0.2 ms more a statement.
  const send = (...messages: ReadonlyArray<Uint8Array>) =>
    pglite.execProtocolStream(Buffer.concat(messages), { syncToFs: false })

  let made = 0
  // Runs under the database's lock: a statement named meanwhile (by a caller queued earlier) is reused.
  const prepare = async (text: string): Promise<Named> => {
    const done = named.get(text)
    if (done !== undefined) return done
    const name = `roda_${++made}`
    const described = await send(
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: "S", name }),
      protocol.serialize.sync()
    )
    const entry = { name, types: parse.parseDescribeStatementResults(described), columns: columnsOf(described) }
    named.set(text, entry)
    return entry
  }

  const run = (text: string, params: ReadonlyArray<unknown>, options: QueryOptions | undefined, known?: Named) =>
    pglite.runExclusive(async () => {
      const { columns, name, types } = known ?? await prepare(text)
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null
        const serialize = options?.serializers?.[types[i]!] ?? pglite.serializers[types[i]!]
        return serialize ? serialize(value) : String(value)
      })
      const messages = await send(
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.execute({}),
        protocol.serialize.sync()
      )
      await pglite.syncToFs()
      return toResults(messages, columns, pglite.parsers, options)
    })

  return (text: string, params: ReadonlyArray<unknown>, options?: QueryOptions): Promise<Results<object>> => {
    const known = named.get(text)
    if (known !== undefined) return run(text, params, options, known)
    if (params.length === 0 || named.size() >= HotTexts.MAX_NAMED || !hot.sent(text)) {
      return pglite.query<object>(text, [...params], options)
    }
    return run(text, params, options)
  }
}

export type NamedQuery = ReturnType<typeof namedQuery>
