import { Effect } from "effect"

/**
 * Counts the spans @effect/sql opens per statement ("sql.execute") while `run` goes through the
 * web handler: the handler's fibers use the default tracer, so its `span` is wrapped for the call.
 * The middleware's statements count too; BEGIN, COMMIT and savepoints do not.
 */
export const statements = async <A>(run: () => Promise<A>) => {
  const tracer = Effect.runSync(Effect.tracer)
  const span = tracer.span
  let n = 0
  ;(tracer as { span: typeof span }).span = (name, ...rest) => {
    if (name === "sql.execute") n++
    return span.call(tracer, name, ...rest)
  }
  try {
    const result = await run()
    return { n, result }
  } finally {
    ;(tracer as { span: typeof span }).span = span
  }
}
