import type { Effect } from "effect"
import type { ExportFile } from "../privacy/PersonalData"

/**
 * The export files of every feature that holds personal data (`<feature>/personalDataExport.ts`), in
 * the order the ZIP lists them. A feature that adds personal data adds its files here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const personalDataFiles: ReadonlyArray<Effect.Effect<ReadonlyArray<ExportFile>, never, any>> = []
