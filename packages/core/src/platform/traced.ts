import { Effect, FiberRef } from "effect"

/**
 * `Effect.fn(name)` at no cost while tracing is off. `Effect.fn` captures a stack trace and opens a
 * span on every call, tracing or not (with tracing off a no-op span, which still copies the fiber's
 * whole context); on a request's path that is a few per cent of its CPU. This runs the body untraced
 * and opens the named span only when the tracer is on (`tracing` or `tracer` in the config).
 */
export const traced = (name: string): typeof Effect.fnUntraced =>
  ((body: (...args: Array<unknown>) => Generator, ...pipeables: Array<(effect: unknown) => unknown>) => {
    const run = (Effect.fnUntraced as (...fn: Array<unknown>) => (...args: Array<unknown>) => Effect.Effect<unknown>)(
      body,
      ...pipeables
    )
    return (...args: Array<unknown>) =>
      Effect.withFiberRuntime((fiber) =>
        fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(run(...args), name) : run(...args)
      )
  }) as unknown as typeof Effect.fnUntraced
