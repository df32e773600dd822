import type { Effect } from "effect"
import type { ErasureStep } from "../privacy/PersonalData"

/**
 * The erasure step of every feature that holds personal data (`<feature>/personalDataErasure.ts`), run
 * in this order in the erasure's transaction. A feature that adds personal data adds its step here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const personalDataErasures: ReadonlyArray<Effect.Effect<ErasureStep, never, any>> = []
