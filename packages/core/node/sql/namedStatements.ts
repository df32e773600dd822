import { HotTexts, TextTable } from "@roda/sql-pglite"
import pg from "pg"

/**
 * Names for hot statements (`HotTexts`). node-postgres sends a statement without a name as an unnamed one, which
 * PostgreSQL parses and plans on every call; a named one is parsed once per connection and then
 * only bound and executed (with a cached plan where PostgreSQL finds it as good). Only statements
 * with parameters are named: a parameterless text may hold several commands, which cannot be
 * prepared.
 */
export const makeStatementNames = () => {
  const hot = HotTexts.make()
  const named = TextTable.make<string>()
  return (text: string): string | undefined => {
    const name = named.get(text)
    if (name !== undefined) return name
    if (named.size() >= HotTexts.MAX_NAMED || !hot.sent(text)) return undefined
    const fresh = `roda_${named.size() + 1}`
    named.set(text, fresh)
    return fresh
  }
}

/**
 * A node-postgres client class that names hot parameterised statements (see `makeStatementNames`).
 * The `Query` is made from the text and then named: given a config object, node-postgres copies it
 * property by property (`Object.getOwnPropertyDescriptors`) on every call.
 */
export const namingClient = (nameOf: (text: string) => string | undefined): typeof pg.Client =>
  class NamingClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config)
      // A FATAL error (a terminated backend: SQLSTATE 57P01) ends the session, but node-postgres
      // hands it to the running statement and still counts the client queryable until the socket
      // closes; the pool then gave the dead connection to the next waiting statement. Marked here,
      // before the client's own handler runs, the pool ends it on release (it reads `_queryable`).
      const connection = (this as unknown as { connection: pg.Connection }).connection
      connection.on("errorMessage", (message: { severity?: string }) => {
        if (message.severity === "FATAL" || message.severity === "PANIC") {
          ;(this as unknown as { _queryable: boolean })._queryable = false
        }
      })
    }

    override query(...args: Array<any>): any {
      const [text, values, callback] = args
      if (typeof text === "string" && Array.isArray(values) && values.length > 0) {
        const name = nameOf(text)
        if (name !== undefined && typeof callback === "function") {
          const query = Object.assign(new pg.Query(text, values, callback), { name })
          return (super.query as any)(query)
        }
        if (name !== undefined) return (super.query as any)({ name, text, values }, callback)
      }
      return (super.query as any)(...args)
    }
  } as typeof pg.Client
