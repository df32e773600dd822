import { Effect } from "effect"
import { NotFound, notFound } from "../domain/AppError"
import type { Message } from "../domain/Text"

/** A 404 of `effect` (e.g. the call of a track one may not see) told as the 404 of what was asked for. */
export const notFoundAs = <Code extends string>(message: Message<Code>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, NotFound> => error instanceof NotFound,
    () => Effect.fail(notFound(message))
  )
