import { Context, Redacted } from "effect"
import type { TrustProxySetting } from "../http/proxy/trustProxy"
import type { RateLimitSettings } from "./rateLimitSettings"

/** Typed options core is built with; adapters read them from the environment (architecture rule 7). */
export interface RodaOptions {
  /** HS256 secret for access tokens. */
  readonly jwtSecret: Redacted.Redacted<string>
  /** Absolute URL the service is reached at (links in e-mails, OAuth issuer). */
  readonly publicBaseUrl: string
  /** Accounts with these e-mails are platform operators (SuperAdmin). */
  readonly platformAdminEmails: ReadonlyArray<string>
  /** Send e-mail over SMTP as well as writing the outbox. */
  readonly smtpUrl?: string | undefined
  /** Failed logins allowed in `loginWindowSeconds`, per account and per client address. */
  readonly loginAttemptsPerAccount: number
  readonly loginAttemptsPerAddress: number
  /**
   * `loginAttemptsPerAccount` counts per account AND client address (a stranger elsewhere cannot lock
   * the holder out); this much higher limit counts per account from every address.
   */
  readonly loginAttemptsPerAccountGlobal?: number | undefined
  readonly loginWindowSeconds: number
  /**
   * HMAC secret of the sandbox gateway's webhooks (Standard Webhooks: `whsec_<base64 key>`, or any
   * other string used as the key's UTF-8 bytes). Without it the sandbox refuses every webhook.
   */
  readonly sandboxWebhookSecret?: Redacted.Redacted<string> | undefined
  /**
   * Browser origins allowed by CORS (e.g. `https://app.example`); each allowed origin is reflected
   * (with `Vary: Origin`), never `*`. Default: the origin of `publicBaseUrl`.
   */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /**
   * Run a background worker for durable jobs in this process (default true). Off, jobs wait for a
   * process that runs them, or for `Jobs.runDue` (tests drive it with `TestClock`).
   */
  readonly runJobs?: boolean | undefined
  /**
   * Where the Node platform keeps stored files (certificate PDFs and images): `BLOB_URL`, see
   * `BlobLocation`. Unset: a folder when `blobDir` is set, else memory (tests, `DATA_DIR=memory`).
   */
  readonly blobStore?: BlobLocation | undefined
  /** Folder of stored files, when `blobStore` is unset (the embedded server's `DATA_DIR/blobs`). */
  readonly blobDir?: string | undefined
  /** The sender of e-mails sent over SMTP, `Name <address>` or an address. Default: `Roda <no-reply@roda.local>`. */
  readonly mailFrom?: string | undefined
  /** Serve the OpenAPI document (`/api/openapi.json`) and the docs page (`/api/docs`); default true. */
  readonly docs?: boolean | undefined
  /**
   * Accept `http://127.0.0.1…` / `http://localhost…` URLs as OAuth Client ID Metadata Documents (tests
   * serving one locally). Off by default: a metadata document's URL must be `https`.
   */
  readonly oauthAllowHttpMetadataDocuments?: boolean | undefined
  /**
   * Webhook endpoints may be `http` and on loopback or private addresses (`WEBHOOKS_ALLOW_PRIVATE=true`:
   * development and tests). Off by default: an endpoint is `https` to a public address, checked after
   * DNS resolution on every delivery.
   */
  readonly webhooksAllowPrivate?: boolean | undefined
  /**
   * OAuth dynamic registrations (`POST /oauth/register`, which needs no account) allowed per clock
   * hour from one client address and from everyone together; 0 turns a limit off. Counted in the
   * database, so every process serving the database shares them. Default 20 and 1,000
   * (`OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR`, `OAUTH_REGISTRATIONS_PER_HOUR`).
   */
  readonly oauthRegistrationLimit?: OAuthRegistrationLimit | undefined
  /**
   * The proxies in front of Roda (`TRUST_PROXY`), whose `Forwarded` / `X-Forwarded-For` name the
   * client: unset or `false`, none (the peer's address is the client); a number, that many hops; or
   * their addresses, CIDRs, `loopback` and `private` (a comma list or an array). Every per-client
   * limit and the audit log use the client found this way.
   */
  readonly trustProxy?: TrustProxySetting | undefined
  /**
   * The limits on abuse (`RATE_LIMITS`), `{ name: { limit, windowSeconds } }` over the defaults of
   * `DEFAULT_RATE_LIMITS`; `0` (or a limit of 0) turns one off. Counted in the database.
   */
  readonly rateLimits?: RateLimitSettings | undefined
  /**
   * Seconds between the heartbeat comments of `GET /api/notifications/stream` (default
   * `NOTIFICATION_HEARTBEAT_SECONDS`, 25): they keep proxies from closing an idle stream.
   */
  readonly notificationHeartbeatSeconds?: number | undefined
  /**
   * How old the figures of `GET /api/feed/stats` may be, in whole seconds (`FEED_STATS_MAX_AGE_SECONDS`,
   * default `FEED_STATS_MAX_AGE_SECONDS_DEFAULT`, 60): each process counts them at most once per this
   * long per community and reader scope and answers from memory in between (the route is public, and
   * counting a large community takes hundreds of milliseconds). 0: counted on every request (exact).
   */
  readonly feedStatsMaxAgeSeconds?: number | undefined
}

export const NOTIFICATION_HEARTBEAT_SECONDS = 25
export const FEED_STATS_MAX_AGE_SECONDS_DEFAULT = 60

/**
 * A place for stored files: this process's memory; a folder; the database's own tables (every process
 * on a PostgreSQL database sees them); an S3-compatible bucket under a key prefix. S3 without
 * `credentials` uses the AWS SDK's default chain (AWS_ACCESS_KEY_ID…, profiles, instance roles); with
 * an `endpoint` (MinIO, R2, a local server) requests use path-style addressing.
 */
export type BlobLocation =
  | { readonly _tag: "Memory" }
  | { readonly _tag: "Folder"; readonly dir: string }
  | { readonly _tag: "Database" }
  | {
    readonly _tag: "S3"
    readonly bucket: string
    /** Keys are `<prefix>/<key>`; empty for the bucket's root. */
    readonly prefix: string
    readonly region: string
    readonly endpoint?: string | undefined
    readonly credentials?: {
      readonly accessKeyId: string
      readonly secretAccessKey: Redacted.Redacted<string>
      readonly sessionToken?: Redacted.Redacted<string> | undefined
    } | undefined
  }

export interface OAuthRegistrationLimit {
  readonly perAddressPerHour: number
  readonly totalPerHour: number
}

export const DEFAULT_OAUTH_REGISTRATION_LIMIT: OAuthRegistrationLimit = { perAddressPerHour: 20, totalPerHour: 1000 }

export class Options extends Context.Tag("@roda/core/Options")<Options, RodaOptions>() {}

export const defaultOptions = (
  overrides: Partial<RodaOptions> & Pick<RodaOptions, "jwtSecret">
): RodaOptions => ({
  publicBaseUrl: "http://localhost:3000",
  platformAdminEmails: [],
  loginAttemptsPerAccount: 5,
  loginAttemptsPerAddress: 30,
  loginAttemptsPerAccountGlobal: 100,
  loginWindowSeconds: 15 * 60,
  oauthRegistrationLimit: DEFAULT_OAUTH_REGISTRATION_LIMIT,
  ...overrides
})

export const secret = (value: string) => Redacted.make(value)
