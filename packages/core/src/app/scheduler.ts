import { Layer, Scheduler } from "effect"

/**
 * The scheduler of Roda's runtimes: Effect's default (`MixedScheduler`), with each fiber's runner kept
 * on the fiber instead of in a `WeakMap`. Every fiber resumed from I/O (a request's, after a statement
 * or a body read) goes through its runner, so the default scheduler added a weak entry per request;
 * weak entries with young keys made each young-generation collection about three times longer (a micro
 * run of 300,000 fibers that each wait twice: scavenges 7.2 → 2.3 ms; bench/README.md). The runners,
 * their microtask batches and the timer after `MAX_NEXT_TICK_BEFORE_TIMER` batches are Effect's own.
 */
const MAX_NEXT_TICK_BEFORE_TIMER = 2048

const scheduleDrain = (depth: number, drain: (depth: number) => void) => {
  if (depth >= MAX_NEXT_TICK_BEFORE_TIMER) setTimeout(() => drain(0), 0)
  else void Promise.resolve(undefined).then(() => drain(depth + 1))
}

/** A property of Roda's own on the fiber object: its runner. */
const RUNNER = Symbol("roda/scheduler/runner")

type WithRunner = { [RUNNER]?: Scheduler.SchedulerRunner }

const fallback = new Scheduler.SchedulerRunner(scheduleDrain)

const runnerOf = (fiber: WithRunner | undefined): Scheduler.SchedulerRunner => {
  if (fiber === undefined) return fallback
  let runner = fiber[RUNNER]
  if (runner === undefined) {
    runner = new Scheduler.SchedulerRunner(scheduleDrain)
    fiber[RUNNER] = runner
  }
  return runner
}

export const rodaScheduler: Scheduler.Scheduler = Scheduler.make((task, priority, fiber) =>
  runnerOf(fiber as WithRunner | undefined).scheduleTask(task, priority)
)

/** Installs `rodaScheduler` in the runtime built from the layer it is merged into. */
export const schedulerLayer: Layer.Layer<never> = Layer.setScheduler(rodaScheduler)
