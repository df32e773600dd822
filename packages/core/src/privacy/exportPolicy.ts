/**
 * The states of a data export and the moves between them (rule 2 of the house: explicit transitions).
 * `running -> running`: a job claimed again after its process died mid-way builds the file again.
 */
export const exportStatuses = ["pending", "running", "ready", "failed", "expired"] as const
export type ExportStatus = typeof exportStatuses[number]

export const exportMoves: Readonly<Record<ExportStatus, ReadonlyArray<ExportStatus>>> = {
  pending: ["running", "failed"],
  running: ["running", "ready", "failed"],
  ready: ["expired"],
  failed: [],
  expired: []
}

/** The states a move to `to` may start from. */
export const movesInto = (to: ExportStatus): ReadonlyArray<ExportStatus> =>
  exportStatuses.filter((from) => exportMoves[from].includes(to))

/** An export still being built: one at a time per account. */
export const OPEN_STATUSES: ReadonlyArray<ExportStatus> = ["pending", "running"]

/** Exports an account may request in `CAP_WINDOW_MS` (failed ones do not count). */
export const EXPORTS_PER_WINDOW = 3
export const CAP_WINDOW_MS = 24 * 3600_000
/** How long a ready export (its file and its link) is kept. */
export const EXPORT_VALID_MS = 7 * 24 * 3600_000
