import { Effect } from "effect"

/** The names of the spans opened through the default tracer (which `tracing: true` uses) while `run` runs. */
export const spans = async (run: () => Promise<unknown>) => {
  const tracer = Effect.runSync(Effect.tracer)
  const span = tracer.span
  const names: Array<string> = []
  ;(tracer as { span: typeof span }).span = (name, ...rest) => {
    names.push(name)
    return span.call(tracer, name, ...rest)
  }
  try {
    await run()
    return names
  } finally {
    ;(tracer as { span: typeof span }).span = span
  }
}
