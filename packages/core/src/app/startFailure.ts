import { Cause, Runtime } from "effect"

/** Roda could not start: its database did not open, connect or migrate. `ready()` rejects with it. */
export class RodaStartError extends Error {
  override readonly name = "RodaStartError"
}

/** The failure of `ready()` as one clear line (the first failure's message), keeping the cause. */
export const startFailure = (error: unknown): RodaStartError => {
  const root = Runtime.isFiberFailure(error) ? Cause.squash(error[Runtime.FiberFailureCauseId]) : error
  const message = root instanceof Error ? root.message : String(root)
  return new RodaStartError(message, { cause: root })
}
