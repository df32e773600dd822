import { Effect } from "effect"
import { type AppError, notFound } from "../domain/AppError"
import type { Text } from "../domain/Text"

/** A 404 of `effect` (e.g. the call of a track one may not see) told as the 404 of what was asked for. */
export const notFoundAs = (message: Text) => <A, E extends AppError, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(effect, (error) => error.status === 404, () => Effect.fail(notFound(message)))
