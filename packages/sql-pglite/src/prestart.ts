/**
 * `@roda/sql-pglite/prestart`: opening a data folder early, in a worker thread, from a module that
 * loads neither Effect nor PGlite, so a program can start it before loading the rest of itself.
 */
import { prestartEngine } from "./internal/start"

export interface PrestartConfig {
  /** The data folder, as the `PgliteClient` config that will open it names it. */
  readonly dataDir: string
  /** As in `PgliteClientConfig`. */
  readonly contrib?: ReadonlyArray<string> | undefined
  /** As in `PgliteClientConfig`. */
  readonly unpackFrom?: string | undefined
}

/**
 * Starts opening `dataDir` in a worker thread now (unpacking a new folder from `unpackFrom` first):
 * the next `PgliteClient` of this process with `thread: "worker"` and the same folder, `contrib` and
 * `unpackFrom` takes it over instead of starting its own. A client with other options closes it first,
 * and removes the folder it made, if it made one. One prestart at a time; failures are the client's.
 */
export const prestart = (config: PrestartConfig): void =>
  prestartEngine(config.dataDir, { contrib: config.contrib, unpackFrom: config.unpackFrom })
