import type { SqlClient } from "@effect/sql"
import { Effect, type Layer, Redacted, type Scope } from "effect"
import pg from "pg"
import {
  databaseSignals,
  inProcessSignals,
  type NotificationSignals,
  SIGNAL_CHANNEL
} from "../src/notifications/Signals"
import type { DatabaseOptions } from "../src/sql/Database"

/** Wait before listening again after the connection was lost. */
const RECONNECT_MS = 1000

/**
 * `LISTEN` on one connection of its own (outside the pool: a pooled connection would be handed back),
 * kept for the scope (opened before the layer is ready). When it is lost it connects again, and tells every stream to read (`"*"`): what
 * was sent meanwhile was not heard.
 */
const listenOn = (url: Redacted.Redacted<string>) => (hear: (payload: string) => void) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      let client: pg.Client | undefined
      let closed = false
      let timer: ReturnType<typeof setTimeout> | undefined
      const connect = (again: boolean) => {
        const next = new pg.Client({ connectionString: Redacted.value(url), application_name: "roda-listen" })
        client = next
        const lost = () => {
          if (closed || client !== next) return
          client = undefined
          void next.end().catch(() => undefined)
          timer = setTimeout(() => void connect(true), RECONNECT_MS)
        }
        next.on("error", lost)
        next.on("end", lost)
        next.on("notification", (message) => {
          if (message.channel === SIGNAL_CHANNEL && message.payload) hear(message.payload)
        })
        return next.connect()
          .then(() => next.query(`LISTEN ${SIGNAL_CHANNEL}`))
          .then(() => {
            if (again) hear("*")
          })
          .catch(lost)
      }
      await connect(false)
      return () => {
        closed = true
        if (timer) clearTimeout(timer)
        return client?.end().catch(() => undefined)
      }
    }),
    (close) => Effect.promise(async () => close()).pipe(Effect.timeoutOption(1000))
  ).pipe(Effect.asVoid) as Effect.Effect<void, never, Scope.Scope>

/**
 * The Node platform's notification signals: on PostgreSQL `pg_notify` and `LISTEN` (across
 * processes), on PGlite within the process (one process holds the database).
 */
export const nodeNotificationSignals = (
  options: DatabaseOptions
): Layer.Layer<NotificationSignals, never, SqlClient.SqlClient> =>
  options._tag === "Postgres" ? databaseSignals(listenOn(options.url)) : inProcessSignals
