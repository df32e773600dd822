import { type DatabaseOptions, redactedDatabaseTarget } from "@roda/core"
import { Cause, Logger, LogLevel as EffectLogLevel } from "effect"
import { resolve } from "node:path"

export const LOG_FORMATS = ["json", "pretty"] as const
export type LogFormat = (typeof LOG_FORMATS)[number]
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface LogSettings {
  /** `LOG_FORMAT`: one JSON object per line, or a line for people. */
  readonly format: LogFormat
  /** `LOG_LEVEL`: lines below it are not written. */
  readonly level: LogLevel
}

/** Pretty on a terminal, JSON lines otherwise (a collector reads them). */
export const defaultLogSettings = (): LogSettings => ({
  format: process.stdout.isTTY ? "pretty" : "json",
  level: "info"
})

export interface RequestLine {
  readonly requestId: string
  readonly method: string
  /** The path, without the query string. */
  readonly path: string
  /** The route template it matched (`/api/courses/:slug`), when it matched one. */
  readonly route?: string | undefined
  /** The client's address (`TRUST_PROXY` decides whose), when known. */
  readonly clientAddress?: string | undefined
  readonly status: number
  readonly durationMs: number
}

export interface Log {
  /** One line per answered request: `info`, or `error` for a 5xx. */
  readonly request: (line: RequestLine) => void
  /** Whether `request` writes a line for an answer with this status (at the configured level). */
  readonly logsRequest: (status: number) => boolean
  readonly write: (level: LogLevel, message: string, fields?: Record<string, unknown>) => void
  /** Writes what is buffered now (lines are otherwise written together once per turn of the event loop). */
  readonly flush: () => void
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }
const LABEL: Record<LogLevel, string> = { debug: "DEBUG", info: "INFO", warn: "WARN", error: "ERROR" }
/** Flushed at once past this many buffered characters. */
const BUFFER_LIMIT = 64 * 1024

const clock = (date: Date) => date.toISOString().slice(11, 23)

/**
 * A structured log written straight to `sink` (stdout by default): no fiber and no logger pipeline
 * per line. Lines of one turn of the event loop are joined and written once.
 */
export const makeLog = (
  settings: LogSettings,
  sink: (chunk: string) => void = (chunk) => {
    process.stdout.write(chunk)
  }
): Log => {
  const minimum = RANK[settings.level]
  let pending = ""
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === "") return
    const chunk = pending
    pending = ""
    sink(chunk)
  }
  const emit = (line: string) => {
    pending += line + "\n"
    if (pending.length >= BUFFER_LIMIT) flush()
    else if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
  const json = settings.format === "json"
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < minimum) return
    const now = new Date()
    if (json) {
      emit(JSON.stringify({ time: now.toISOString(), level, msg: message, ...fields }))
      return
    }
    let line = `[${clock(now)}] ${LABEL[level]} ${message}`
    if (fields) {
      for (const name in fields) {
        line += ` ${name}=${typeof fields[name] === "string" ? fields[name] : JSON.stringify(fields[name])}`
      }
    }
    emit(line)
  }
  const logsRequest = (status: number) => RANK[status >= 500 ? "error" : "info"] >= minimum
  const request = (line: RequestLine) => {
    const level: LogLevel = line.status >= 500 ? "error" : "info"
    if (RANK[level] < minimum) return
    const durationMs = Math.round(line.durationMs * 10) / 10
    const now = new Date()
    if (json) {
      emit(JSON.stringify({
        time: now.toISOString(),
        level,
        msg: "request",
        requestId: line.requestId,
        method: line.method,
        path: line.path,
        ...(line.route === undefined ? {} : { route: line.route }),
        ...(line.clientAddress === undefined ? {} : { clientAddress: line.clientAddress }),
        status: line.status,
        durationMs
      }))
    } else {
      emit(
        `[${clock(now)}] ${LABEL[level]} ${line.method} ${line.path} ${line.status} ${durationMs}ms ${line.requestId}${
          line.clientAddress === undefined ? "" : ` ${line.clientAddress}`
        }`
      )
    }
  }
  return { request, logsRequest, write, flush }
}

/**
 * Roda's own lines (migrations, e-mail delivery, jobs) written to the server's log, with the cause
 * logged beside the message (a 500's defect, a failed job round) as a `cause` field.
 */
export const logTo = (log: Log) =>
  Logger.make(({ cause, logLevel, message }) => {
    const level: LogLevel = EffectLogLevel.lessThan(logLevel, EffectLogLevel.Info)
      ? "debug"
      : EffectLogLevel.lessThan(logLevel, EffectLogLevel.Warning)
      ? "info"
      : EffectLogLevel.lessThan(logLevel, EffectLogLevel.Error)
      ? "warn"
      : "error"
    const parts = Array.isArray(message) ? message : [message]
    log.write(
      level,
      parts.map((part) => typeof part === "string" ? part : String(part)).join(" "),
      Cause.isEmpty(cause) ? undefined : { cause: Cause.pretty(cause) }
    )
  })

/** The first line of a start: which database, where (a folder as an absolute path, a URL without its password). */
export const openingMessage = (database: DatabaseOptions) =>
  database._tag === "Postgres"
    ? `connecting to PostgreSQL at ${redactedDatabaseTarget(database.url)}`
    : database.dataDir === "memory"
    ? "opening embedded database in memory (DATA_DIR=memory: nothing is kept)"
    : `opening embedded database at ${resolve(database.dataDir)}`
