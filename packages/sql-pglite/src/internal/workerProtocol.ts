import type { Runtime } from "./runtime"

/**
 * What the worker opens, given as its `workerData`. PGlite's compiled WebAssembly either follows in a
 * message (`RuntimeMessage`), when the starting thread has it or is compiling it, or the worker
 * compiles it itself (`compile`) and hands it back with its first answer (`Opened`). Either way the
 * worker unpacks a new folder meanwhile.
 */
export interface WorkerInit {
  readonly dataDir: string | undefined
  readonly contrib: ReadonlyArray<string>
  readonly loadDataDir: Blob | undefined
  readonly unpackFrom: string | undefined
  readonly compile: boolean
}

/** The value of the worker's first answer (id 0): the database is open. */
export interface Opened {
  readonly unpacked: boolean
  /** The runtime the worker compiled, when `WorkerInit.compile` asked it to. */
  readonly runtime: Runtime | undefined
}

export interface RuntimeMessage {
  readonly op: "runtime"
  readonly runtime: Runtime
}

export type Request =
  | {
    readonly id: number
    readonly op: "query"
    readonly sql: string
    readonly params: ReadonlyArray<unknown>
    readonly rowMode: "array" | "object" | undefined
  }
  | { readonly id: number; readonly op: "exec"; readonly sql: string }
  | { readonly id: number; readonly op: "dump" }
  | { readonly id: number; readonly op: "close" }

/** The answer to request `id`; id 0 says the database is open (`{ unpacked }`), or why it could not be. */
export type Reply =
  | { readonly id: number; readonly value: unknown; readonly error?: undefined }
  | { readonly id: number; readonly error: SentError }

/** An error as it crosses threads: its message and its own plain fields (SQLSTATE `code`, `constraint`…). */
export interface SentError {
  readonly message: string
  readonly fields: Readonly<Record<string, string | number | boolean>>
}

export const sendError = (error: unknown): SentError => {
  if (!(error instanceof Error)) return { message: String(error), fields: {} }
  const fields: Record<string, string | number | boolean> = { name: error.name }
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value
  }
  return { message: error.message, fields }
}

/** The error on this side: an `Error` with the same message and fields (a `DatabaseError`'s `code` stays `code`). */
export const receiveError = (sent: SentError): Error => Object.assign(new Error(sent.message), sent.fields)
