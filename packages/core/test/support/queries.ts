import { Effect, Option, type Tracer } from "effect"

/** Whether `parent` is, or descends from, a span whose name `matches`. */
const under = (parent: Option.Option<Tracer.AnySpan>, matches: (name: string) => boolean): boolean => {
  let current = parent
  while (Option.isSome(current)) {
    const span = current.value
    if (span._tag === "Span" && matches(span.name)) return true
    current = span._tag === "Span" ? span.parent : Option.none()
  }
  return false
}

const isRequest = (name: string) => name.startsWith("http.server")
/** A job's run (`Jobs`): its statements count like a request's. */
const isJob = (name: string) => name === "Jobs.run"
/** Writing a webhook event, from reading what it says to its insert (`WebhookEvents.*` spans). */
const isEmit = (name: string) => name.startsWith("WebhookEvents.")

/**
 * Counts the spans @effect/sql opens per statement ("sql.execute") while `run` goes through the
 * web handler (tracing on): the handler's fibers use the default tracer, so its `span` is wrapped
 * for the call. Only the request's own statements count (those under its `http.server` span), not
 * those of the job runner working meanwhile, unless `jobs` is set (then those of every job run too)
 * or `spans` names the spans of that work (`inSpans`: the statements under those alone).
 * The middleware's statements count too; BEGIN, COMMIT and savepoints do not: they are counted
 * apart, as `transactions` ("sql.transaction" spans, one per BEGIN or SAVEPOINT, each with its
 * COMMIT/RELEASE or ROLLBACK). `emits`: how many of the counted statements wrote webhook events
 * (issue 54, item 4: emitting an event adds at most one statement).
 */
export const statements = async <A>(
  run: () => Promise<A>,
  options: {
    readonly jobs?: boolean
    /** Spans of background work (e.g. `Certificates.issued`) whose statements count too. */
    readonly spans?: ReadonlyArray<string>
  } = {}
) => {
  const tracer = Effect.runSync(Effect.tracer)
  const span = tracer.span
  const named = (name: string) => options.spans?.includes(name) ?? false
  const counted = (name: string) => isRequest(name) || (options.jobs === true && isJob(name)) || named(name)
  let n = 0
  let transactions = 0
  let emits = 0
  let inSpans = 0
  ;(tracer as { span: typeof span }).span = (name, parent, ...rest) => {
    if (name === "sql.execute" && under(parent, counted)) {
      n++
      if (under(parent, isEmit)) emits++
      if (under(parent, named)) inSpans++
    }
    if (name === "sql.transaction" && under(parent, counted)) transactions++
    return span.call(tracer, name, parent, ...rest)
  }
  try {
    const result = await run()
    return { n, transactions, emits, inSpans, result }
  } finally {
    ;(tracer as { span: typeof span }).span = span
  }
}
