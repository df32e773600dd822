import type { SqlClient } from "@effect/sql"
import type { Layer } from "effect"
import type { CertificateRenderer } from "../certificates/Renderer"
import type { NotificationSignals } from "../notifications/Signals"
import type { BlobStore } from "../platform/BlobStore"
import type { MailTransport } from "../platform/Mailer"
import type { Options } from "../platform/Options"
import type { Passwords } from "../platform/Passwords"
import type { PublicFetch } from "../platform/PublicFetch"
import type { DatabaseOptions } from "../sql/Database"

/**
 * What core needs from the runtime it runs on (core itself uses web standards only: fetch,
 * `crypto.subtle`, `TextEncoder`). `@roda/core/node` exports `nodePlatform` and a `makeRoda` /
 * `servicesLayer` that use it by default; another runtime passes its own as `config.platform`.
 */
export interface RodaPlatform {
  /** Names the platform in messages. */
  readonly name: string
  /** The SqlClient of `config.database`, opened with every migration applied (`migrate`). */
  readonly database: (options: DatabaseOptions) => Layer.Layer<SqlClient.SqlClient>
  /** Password hashing (keep the stored format stable: accounts keep their hashes). */
  readonly passwords: Layer.Layer<Passwords>
  /** SMTP, used when `options.smtpUrl` is set (`MailTransport.unavailable` where there is none). */
  readonly mail: Layer.Layer<MailTransport>
  /**
   * Where certificate files and uploaded images are kept (`BlobStore.memory` and `databaseBlobStore`
   * are runtime-free); given the options and the database.
   */
  readonly blobs: Layer.Layer<BlobStore, never, Options | SqlClient.SqlClient>
  /** Certificate PDF and PNG rendering, fonts included. */
  readonly certificates: Layer.Layer<CertificateRenderer>
  /**
   * GETs of URLs a client names (OAuth Client ID Metadata Documents), public addresses only. When
   * absent, `PublicFetch.web`: the web fetch, with the name checked but not the addresses it resolves to.
   */
  readonly publicFetch?: Layer.Layer<PublicFetch> | undefined
  /**
   * Wake-ups of the notification streams for the database (`notifications/Signals.ts`): on
   * PostgreSQL `databaseSignals` with a `LISTEN` connection, so that every process hears every write.
   * When absent, `inProcessSignals`: right for a database of one session (PGlite); with a pool, a
   * stream may read before the write commits and show it only at the next wake-up.
   */
  readonly notificationSignals?:
    | ((options: DatabaseOptions) => Layer.Layer<NotificationSignals, never, SqlClient.SqlClient>)
    | undefined
}
