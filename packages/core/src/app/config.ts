import type { Layer } from "effect"
import type { Ids } from "../platform/Ids"
import type { RodaOptions } from "../platform/Options"
import type { PaymentGateway } from "../platform/PaymentGateway"
import type { DatabaseOptions } from "../sql/Database"

export interface RodaConfig {
  readonly database: DatabaseOptions
  readonly options: RodaOptions
  /**
   * The payment provider; when absent, the sandbox (no network), whose webhooks are verified with
   * `options.sandboxWebhookSecret`.
   */
  readonly paymentGateway?: Layer.Layer<PaymentGateway, never, Ids> | undefined
  /**
   * Open a server span (`http.server <method>`, with the request's headers as attributes) for every
   * request. Off by default: nothing exports traces yet, and the span costs on every request.
   */
  readonly tracing?: boolean | undefined
}
