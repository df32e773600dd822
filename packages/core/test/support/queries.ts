import { Effect, Option, type Tracer } from "effect"

/** Whether `parent` is, or descends from, the server span of a request. */
const inRequest = (parent: Option.Option<Tracer.AnySpan>): boolean => {
  let current = parent
  while (Option.isSome(current)) {
    const span = current.value
    if (span._tag === "Span" && span.name.startsWith("http.server")) return true
    current = span._tag === "Span" ? span.parent : Option.none()
  }
  return false
}

/**
 * Counts the spans @effect/sql opens per statement ("sql.execute") while `run` goes through the
 * web handler (tracing on): the handler's fibers use the default tracer, so its `span` is wrapped
 * for the call. Only the request's own statements count (those under its `http.server` span), not
 * those of the job runner working meanwhile. The middleware's statements count too; BEGIN, COMMIT
 * and savepoints do not: they are counted apart, as `transactions` ("sql.transaction" spans, one per
 * BEGIN or SAVEPOINT, each with its COMMIT/RELEASE or ROLLBACK).
 */
export const statements = async <A>(run: () => Promise<A>) => {
  const tracer = Effect.runSync(Effect.tracer)
  const span = tracer.span
  let n = 0
  let transactions = 0
  ;(tracer as { span: typeof span }).span = (name, parent, ...rest) => {
    if (name === "sql.execute" && inRequest(parent)) n++
    if (name === "sql.transaction" && inRequest(parent)) transactions++
    return span.call(tracer, name, parent, ...rest)
  }
  try {
    const result = await run()
    return { n, transactions, result }
  } finally {
    ;(tracer as { span: typeof span }).span = span
  }
}
