import { SqlClient, Statement } from "@effect/sql"
import { Effect, FiberRef, Layer } from "effect"

/**
 * Roda's statements run straight on their connection when nothing would read a span. `@effect/sql`
 * wraps every statement in a span (`Effect.useSpan`: a no-op span when tracing is off still costs a
 * dozen steps of the interpreter) and in `Effect.scoped` (a scope, a context merge and two context
 * changes: 7-9 µs a statement), although the clients Roda runs on (node-postgres and PGlite) hand out
 * connections that need no scope (their acquirers are `Effect.succeed`; a transaction's connection
 * is its own). With tracing off and no statement transformer, Roda's SqlClient makes each statement
 * an instance of a subclass of `@effect/sql`'s own statement class whose `withConnection` compiles
 * it and runs it on the acquired connection; with tracing on, or a transformer, it is `@effect/sql`'s.
 * The statement is otherwise the same object (a fragment in other statements, `.values`, `.raw`,
 * `.compile`). `@effect/sql` does not export the class: it is the constructor of a statement the
 * client makes, and if that no longer has what is used here, the client is left as it is.
 * Only the SqlClient service is wrapped: `sql.safe`, `sql.withoutTransforms()` and other clients
 * made from it keep `@effect/sql`'s statements.
 */
interface Primitive {
  readonly segments: unknown
  readonly acquirer: Effect.Effect<unknown>
  readonly compiler: unknown
  readonly spanAttributes: unknown
  readonly transformRows: unknown
  compile(withoutTransform?: boolean): readonly [string, ReadonlyArray<unknown>]
  withConnection(operation: string, f: Run, withoutTransform?: boolean): Effect.Effect<unknown, unknown>
}
type Run = (connection: unknown, sql: string, params: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown>
type PrimitiveClass = new(
  segments: unknown,
  acquirer: unknown,
  compiler: unknown,
  spanAttributes: unknown,
  transformRows: unknown
) => Primitive

const directClass = (Base: PrimitiveClass): PrimitiveClass =>
  class Direct extends Base {
    override withConnection(operation: string, f: Run, withoutTransform = false) {
      return Effect.withFiberRuntime<unknown, unknown>((fiber) => {
        if (
          fiber.getFiberRef(FiberRef.currentTracerEnabled) ||
          fiber.getFiberRef(Statement.currentTransformer)._tag === "Some"
        ) return super.withConnection(operation, f, withoutTransform)
        const [text, params] = this.compile(withoutTransform)
        return Effect.flatMap(this.acquirer, (connection) => f(connection, text, params))
      })
    }
  }

/** `sql` whose statements run directly (see above), or `sql` itself if its statements are not as expected. */
export const withDirectStatements = (sql: SqlClient.SqlClient): SqlClient.SqlClient => {
  const probe = sql`SELECT 1` as unknown as Primitive
  const Base = probe.constructor as PrimitiveClass
  if (typeof Base.prototype.withConnection !== "function" || typeof probe.compile !== "function") return sql
  if (!("acquirer" in probe) || !("segments" in probe) || Base.length !== 5) return sql
  const Direct = directClass(Base)
  const direct = <A>(made: A): A => {
    if (!(made instanceof Base)) return made
    const s = made as unknown as Primitive
    return new Direct(s.segments, s.acquirer, s.compiler, s.spanAttributes, s.transformRows) as A
  }
  const template = (...args: Array<any>) => direct((sql as (...a: Array<any>) => unknown)(...args))
  return Object.assign(template, sql, {
    unsafe: (...args: Parameters<SqlClient.SqlClient["unsafe"]>) => direct(sql.unsafe(...args))
  }) as unknown as SqlClient.SqlClient
}

/** The SqlClient of `database`, its statements run directly (see above). */
export const directStatements = <E, R>(
  database: Layer.Layer<SqlClient.SqlClient, E, R>
): Layer.Layer<SqlClient.SqlClient, E, R> =>
  Layer.effect(SqlClient.SqlClient, Effect.map(SqlClient.SqlClient, withDirectStatements)).pipe(
    Layer.provide(database)
  )
