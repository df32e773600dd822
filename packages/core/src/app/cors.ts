import type { RodaOptions } from "../platform/Options"

const originOf = (value: string) => URL.canParse(value) ? new URL(value).origin : value

/**
 * CORS: only the configured origins (default: the origin of `publicBaseUrl`) are answered, each
 * reflected with `Vary: Origin`; never `*`. The request headers a browser client may send are named.
 */
export const corsOptions = (options: RodaOptions) => {
  const allowed = new Set((options.corsOrigins ?? [options.publicBaseUrl]).map(originOf))
  return {
    allowedOrigins: (origin: string) => allowed.has(origin),
    allowedHeaders: [
      "authorization",
      "content-type",
      "accept-language",
      "x-communityid",
      "x-profileid",
      "idempotency-key"
    ],
    exposedHeaders: ["retry-after", "idempotent-replayed"]
  }
}
