import type { SqlClient } from "@effect/sql"
import type { Clock, Effect, Layer, Logger, Scope, Tracer } from "effect"
import type { Ids } from "../platform/Ids"
import type { RodaOptions } from "../platform/Options"
import type { PaymentGateway } from "../platform/PaymentGateway"
import type { PublicUrlSource } from "../platform/PublicUrl"
import type { DatabaseOptions } from "../sql/Database"
import type { RodaPlatform } from "./RodaPlatform"

export interface RodaConfig {
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /**
   * Whose public URL this Roda uses (`PublicUrlSource`): `makeRoda` records `options.publicBaseUrl`
   * in the database by default (`"record"`), as the URL the service is reached at; `servicesLayer`
   * uses it as given (`"given"`). A process that serves nothing (the CLI, the stdio MCP server) and
   * has no URL of its own takes the recorded one (`"recorded"`, or `"recordedOnly"` to refuse to start
   * without one).
   */
  readonly publicUrl?: PublicUrlSource | undefined
  /**
   * The runtime's side of Roda: database drivers, password hashing, SMTP, file storage, certificate
   * rendering. Required by `makeRoda` from `@roda/core`; `@roda/core/node` fills in `nodePlatform`.
   */
  readonly platform?: RodaPlatform | undefined
  /**
   * The payment provider; when absent, the sandbox (no network), whose webhooks are verified with
   * `options.sandboxWebhookSecret`. `stripeGateway(…)` sells through Stripe.
   */
  readonly paymentGateway?: Layer.Layer<PaymentGateway, never, Ids | SqlClient.SqlClient> | undefined
  /**
   * Open spans: a server span (`http.server <method>`, with the request's headers as attributes) for
   * every request, one per service call (`Effect.fn`) and per SQL statement. Off by default: each
   * span costs on every request, and without `tracer` nothing exports them.
   */
  readonly tracing?: boolean | undefined
  /**
   * The clock every service reads (`Clock`): tests pass a controlled one to move time (renewals,
   * retries) through the handler and the jobs alike. Default: the system clock.
   */
  readonly clock?: Clock.Clock | undefined
  /**
   * Where spans go, e.g. `@effect/opentelemetry`'s `OtlpTracer.make` (the Node server builds one when
   * `OTEL_EXPORTER_OTLP_ENDPOINT` is set). Giving one turns `tracing` on. Without it, spans stay
   * in-process and nothing exports them.
   */
  readonly tracer?: Effect.Effect<Tracer.Tracer, never, Scope.Scope> | undefined
  /**
   * Where Roda's own log lines go (start-up, migrations, e-mail delivery, jobs), e.g.
   * `Logger.make(({ logLevel, message }) => pino[logLevel.label.toLowerCase()](message))`. Default:
   * Effect's logger (the console). `Logger.none` silences them.
   */
  readonly logger?: Logger.Logger<unknown, unknown> | undefined
}
