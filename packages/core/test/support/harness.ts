import type { Clock } from "effect"
import { randomUUID } from "node:crypto"
import { EMBEDDED_TEMPLATE_DIR } from "../../../../testing/embeddedTemplate"
import { testPlatform } from "../../../../testing/passwords"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, type Roda, secret } from "../../node/index"
import { confirmLinkFor } from "./outbox"

/**
 * The database the suites run on: PostgreSQL when DATABASE_URL is set (the test file's own database,
 * see testing/fileDatabase.ts), else in-memory PGlite.
 */
export const testDatabase = () =>
  process.env.DATABASE_URL
    ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
    : { _tag: "Embedded" as const, dataDir: "memory" as const, snapshotDir: EMBEDDED_TEMPLATE_DIR }

export const PLATFORM_ADMIN = "operator@roda.test"

/** The sandbox gateway's webhook secret in the suites (sign with `signSandboxWebhook`). */
export const SANDBOX_WEBHOOK_SECRET = "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="

/** `oauthRegistrationLimit` of the suites: not counted (registration-limits.test.ts turns it on). */
export const REGISTRATION_LIMIT_OFF = { perAddressPerHour: 0, totalPerHour: 0 } as const

export const startRoda = (
  overrides: Partial<Parameters<typeof defaultOptions>[0]> = {},
  config: { readonly tracing?: boolean; readonly clock?: Clock.Clock } = {}
): Roda =>
  makeRoda({
    ...config,
    platform: testPlatform,
    database: testDatabase(),
    options: defaultOptions({
      jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
      publicBaseUrl: "http://roda.test",
      platformAdminEmails: [PLATFORM_ADMIN],
      sandboxWebhookSecret: secret(SANDBOX_WEBHOOK_SECRET),
      // Off: the tests of a file share its database (all registering from 127.0.0.1) and would share one budget.
      oauthRegistrationLimit: REGISTRATION_LIMIT_OFF,
      // Off for the same reason; the limits' own suites (test/limits/) turn them on.
      rateLimits: RATE_LIMITS_OFF,
      ...overrides
    })
  })

export interface CallOptions {
  readonly body?: unknown
  readonly raw?: string
  readonly token?: string | undefined
  readonly community?: string | undefined
  readonly profile?: string | undefined
  readonly headers?: Record<string, string>
  readonly clientAddress?: string
}

export interface Reply {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

/** Calls Roda through its web handler, as any backend mounting it would. */
/**
 * Where the client finds the confirmation link sent to an address: by default the instance's outbox;
 * a client of a server in another process (a built server) reads the mail it received instead.
 */
export interface ClientOptions {
  readonly confirmLink?: (email: string) => Promise<{ readonly id: string; readonly token: string }>
}

export const client = (roda: Roda, clientOptions: ClientOptions = {}) => {
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.body !== undefined || options.raw !== undefined) headers["content-type"] ??= "application/json"
    if (options.token) headers["authorization"] = `Bearer ${options.token}`
    if (options.community) headers["x-communityid"] = options.community
    if (options.profile) headers["x-profileid"] = options.profile
    const response = await roda.handler(
      new Request(`http://roda.test${path}`, {
        method,
        headers,
        body: options.raw ?? (options.body === undefined ? null : JSON.stringify(options.body))
      }),
      { clientAddress: options.clientAddress ?? "127.0.0.1" }
    )
    // An event stream never ends: its answer is the status and headers (read it with `fetch` instead).
    if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
      await response.body?.cancel()
      return { status: response.status, body: undefined, headers: response.headers }
    }
    const text = await response.text()
    let body: unknown = text
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers }
  }
  return {
    /** The instance called (for helpers that read its outbox). */
    roda,
    confirmLink: clientOptions.confirmLink ?? ((email: string) => confirmLinkFor(roda, email)),
    call,
    get: (path: string, options?: CallOptions) => call("GET", path, options),
    post: (path: string, body?: unknown, options?: CallOptions) => call("POST", path, { ...options, body }),
    put: (path: string, body?: unknown, options?: CallOptions) => call("PUT", path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: CallOptions) => call("PATCH", path, { ...options, body }),
    del: (path: string, options?: CallOptions) => call("DELETE", path, options)
  }
}

export type Client = ReturnType<typeof client>

export const uniqueEmail = (prefix = "user") => `${prefix}-${randomUUID().slice(0, 8)}@roda.test`
export const PASSWORD = "Secret123"

export interface TestUser {
  readonly id: string
  readonly email: string
  readonly fullName: string
  readonly token: string
}

/** Signs up without using the confirmation link: the account cannot invite, open calls or request payouts. */
export const registerUnverified = async (
  api: Client,
  fullName = "Ana Souza",
  email = uniqueEmail()
): Promise<TestUser> => {
  const reply = await api.post("/api/auth/register", { fullName, email, password: PASSWORD })
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return { id: reply.body.data.id, email, fullName, token: reply.body.data.token }
}

/** Uses, as the holder would, the newest confirmation link e-mailed to `email` (sign-up sends one). */
export const confirmEmail = async (api: Client, email: string) => {
  const link = await api.confirmLink(email)
  const reply = await api.post("/api/auth/confirm-email", { id: link.id, token: link.token })
  if (reply.status !== 200) throw new Error(`confirm-email failed: ${reply.status} ${JSON.stringify(reply.body)}`)
}

/** Signs up and confirms the e-mail through the link sent, as most people do before inviting anyone. */
export const register = async (api: Client, fullName = "Ana Souza", email = uniqueEmail()): Promise<TestUser> => {
  const user = await registerUnverified(api, fullName, email)
  await confirmEmail(api, email)
  return user
}

/** A community with its owner, plus helpers to add members with a role. */
export const makeCommunity = async (api: Client, name = "Comunidade Teste") => {
  const owner = await register(api, "Olga Owner")
  const created = await api.post("/api/communities", { name }, { token: owner.token })
  if (created.status !== 201) throw new Error(`community failed: ${created.status} ${JSON.stringify(created.body)}`)
  const community = created.body.data as { id: string; slug: string; profileId: string }
  const addMember = async (role: string, fullName = `${role} person`) => {
    const user = await register(api, fullName)
    const reply = await api.post("/api/profiles/create", { email: user.email, role }, {
      token: owner.token,
      community: community.id
    })
    if (reply.status !== 201) throw new Error(`add member failed: ${reply.status} ${JSON.stringify(reply.body)}`)
    // An existing account is invited (issue 10): the person accepts, and is a member from then on.
    if (reply.body.data.status === "invited") {
      const accepted = await api.post(`/api/profiles/${reply.body.data.id}/accept`, undefined, {
        token: user.token,
        community: community.id
      })
      if (accepted.status !== 200) {
        throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`)
      }
    }
    return { ...user, profileId: reply.body.data.id as string }
  }
  return { owner: { ...owner, profileId: community.profileId }, community, addMember }
}
