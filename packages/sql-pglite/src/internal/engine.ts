import type { PGlite, Results } from "@electric-sql/pglite"
import { namedQuery } from "./namedStatements"

export interface StatementOptions {
  readonly rowMode?: "array" | "object" | undefined
}

/**
 * Where the statements run: a PGlite on this thread, or one in a worker thread. Both answer
 * alike, and both run the calls made to them one at a time, in the order they were made: a
 * statement given while others run is queued behind them (see `sessionLock.ts`).
 */
export interface Engine {
  /** A statement with parameters (prepared under a name once it is hot), its rows parsed. */
  readonly query: (sql: string, params: ReadonlyArray<unknown>, options?: StatementOptions) => Promise<Results<object>>
  /** Statements without parameters, over the simple protocol (several allowed). */
  readonly exec: (sql: string) => Promise<Array<Results<object>>>
  /** The data directory as an uncompressed tar, for a template. */
  readonly dumpDataDir: () => Promise<Blob>
  readonly close: () => Promise<void>
  /**
   * How many times the database was opened again after its engine died (a worker's): a transaction
   * begun before a restart is gone with its session.
   */
  readonly generation: () => number
  /** `listener` is told when the engine dies by itself (a worker's), and whether it was started again. */
  readonly onDeath: (listener: (death: Death) => void) => void
  /** Whether this engine made its data folder (from `unpackFrom`) as it opened. */
  readonly unpacked: boolean
}

export interface Death {
  readonly error: Error
  /** False when it was left down (it died too often, or its database is in memory). */
  readonly restarted: boolean
}

/** Runs the functions given one at a time, each after the one given before it has settled. */
export const inOrder = () => {
  let last: Promise<unknown> = Promise.resolve()
  return <A>(run: () => Promise<A>): Promise<A> => {
    const next = last.then(run)
    last = next.catch(() => undefined)
    return next
  }
}

/**
 * The engine of a PGlite running on this thread. PGlite queues its calls too, but not always in
 * the order they were made (some wait for a promise before joining its queue), hence our own.
 */
export const inThread = (pglite: PGlite, unpacked: boolean): Engine => {
  const named = namedQuery(pglite)
  const queued = inOrder()
  return {
    query: (sql, params, options) =>
      queued(() => named(sql, params, options?.rowMode === undefined ? undefined : { rowMode: options.rowMode })),
    exec: (sql) => queued(() => pglite.exec(sql) as Promise<Array<Results<object>>>),
    dumpDataDir: () => queued(() => pglite.dumpDataDir("none") as Promise<Blob>),
    close: () => queued(() => pglite.closed ? Promise.resolve() : pglite.close()),
    generation: () => 0,
    onDeath: () => undefined,
    unpacked
  }
}

/** The engine `opening` gives, called through it until then (in the order of the calls). */
export const later = (opening: Promise<Engine>): Engine => {
  let ready: Engine | undefined
  opening.then((engine) => ready = engine, () => undefined)
  const via = <A>(call: (engine: Engine) => Promise<A>): Promise<A> =>
    ready !== undefined ? call(ready) : opening.then(call)
  return {
    query: (sql, params, options) => via((engine) => engine.query(sql, params, options)),
    exec: (sql) => via((engine) => engine.exec(sql)),
    dumpDataDir: () => via((engine) => engine.dumpDataDir()),
    close: () => opening.then((engine) => engine.close(), () => undefined),
    generation: () => ready?.generation() ?? 0,
    onDeath: (listener) => void opening.then((engine) => engine.onDeath(listener), () => undefined),
    unpacked: false
  }
}
