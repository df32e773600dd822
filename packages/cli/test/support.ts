import { SqlClient } from "@effect/sql"
import {
  CommunityId,
  defaultOptions,
  LedgerPosting,
  makeRoda,
  Pricing,
  type PublicUrlSource,
  RATE_LIMITS_OFF,
  type Roda,
  secret
} from "@roda/core/node"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { testPlatform } from "../../../testing/passwords"
import { type Exited, runToEnd } from "../../../testing/runToEnd"

/** The options of a suite whose tests spawn the binary several times, each opening a database: slow on a busy machine. */
export const SPAWNS = { timeout: 240_000 } as const

export const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url))
export const PASSWORD = "Secret123"
const JWT_SECRET = "cli-test-secret-that-is-long-enough-for-hs256"
const SANDBOX_SECRET = "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="

export const tag = () => randomUUID().slice(0, 8)
export const uniqueEmail = (prefix: string) => `${prefix}-${tag()}@roda.test`

export interface WorldOptions {
  /** The URL the in-process Roda runs with (and records, as a server does). Default `http://roda.test`. */
  readonly serverUrl?: string
  /** The binary's own `PUBLIC_BASE_URL`; `null` gives it none. Default `http://roda.test`. */
  readonly cliUrl?: string | null
}

/**
 * A place for one suite: a temporary DATA_DIR (the embedded database, `pg/`, and its files, `blobs/`),
 * or the PostgreSQL of `DATABASE_URL` when set; and the platform operators' e-mails.
 */
export const makeWorld = async (operators: ReadonlyArray<string>, options: WorldOptions = {}) => {
  const cliUrl = options.cliUrl === undefined ? "http://roda.test" : options.cliUrl
  const dataDir = await mkdtemp(join(tmpdir(), "roda-cli-"))
  const postgres = process.env.DATABASE_URL
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATA_DIR: dataDir,
    // Files in `blobs/` on PostgreSQL too (its default is the database), as the in-process Roda keeps them.
    BLOB_URL: pathToFileURL(join(dataDir, "blobs")).href,
    PLATFORM_ADMIN_EMAILS: operators.join(","),
    ...(cliUrl === null ? {} : { PUBLIC_BASE_URL: cliUrl }),
    LOG_LEVEL: "warn",
    // The same secret as the in-process Roda: its tokens are good for the binary too (`roda mcp`).
    JWT_SECRET,
    ...(postgres
      ? {
        DATABASE_URL: postgres,
        PAYMENT_GATEWAY: "sandbox",
        SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET
      }
      : {})
  }
  /** Roda in-process on the same database, for preparing data; disposed before the binary runs (PGlite is one process's). */
  const open = (publicUrl: PublicUrlSource = "record"): Roda =>
    makeRoda({
      publicUrl,
      platform: testPlatform,
      database: postgres
        ? { _tag: "Postgres", url: secret(postgres) }
        : { _tag: "Embedded", dataDir: join(dataDir, "pg") },
      options: defaultOptions({
        jwtSecret: secret(JWT_SECRET),
        publicBaseUrl: options.serverUrl ?? "http://roda.test",
        platformAdminEmails: [...operators],
        sandboxWebhookSecret: secret(SANDBOX_SECRET),
        blobDir: join(dataDir, "blobs"),
        rateLimits: RATE_LIMITS_OFF
      })
    })
  /** `publicUrl: "given"` leaves the recorded public URL as it is (a server records its own). */
  const withRoda = async <A>(use: (api: Api) => Promise<A>, publicUrl?: PublicUrlSource): Promise<A> => {
    const roda = open(publicUrl)
    try {
      return await use(client(roda))
    } finally {
      await roda.dispose()
    }
  }
  /** Runs the built `roda` binary with this world's environment. */
  const cli = (args: ReadonlyArray<string>, extraEnv: Record<string, string> = {}) =>
    runBinary(args, { ...env, ...extraEnv })
  return { dataDir, env, withRoda, cli, postgres: postgres !== undefined }
}

export type Run = Exited

export const runBinary = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  runToEnd(process.execPath, [BIN, ...args], env)

/** The JSON a `--json` run printed (fails the test with what it printed otherwise). */
export const jsonOf = (run: Run): any => {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}${run.stdout}`)
  return JSON.parse(run.stdout)
}

/** The lines a run wrote to stderr (log lines of the server excluded). */
export const errorLines = (run: Run) => run.stderr.split("\n").filter((line) => line.trim() !== "")

// ---- HTTP, for preparing data through the real routes

export interface CallOptions {
  readonly token?: string
  readonly community?: string
}

export const client = (roda: Roda) => {
  const call = async (method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const headers: Record<string, string> = {}
    if (body !== undefined) headers["content-type"] = "application/json"
    if (options.token) headers["authorization"] = `Bearer ${options.token}`
    if (options.community) headers["x-communityid"] = options.community
    const response = await roda.handler(
      new Request(`http://roda.test${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body)
      })
    )
    const text = await response.text()
    const json = text === "" ? undefined : JSON.parse(text)
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return json?.data
  }
  return {
    roda,
    get: (path: string, options?: CallOptions) => call("GET", path, undefined, options),
    post: (path: string, body?: unknown, options?: CallOptions) => call("POST", path, body ?? {}, options),
    sql: <A extends object>(run: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run).pipe(Effect.orDie))
  }
}

export type Api = ReturnType<typeof client>

export interface User {
  readonly id: string
  readonly email: string
  readonly token: string
}

/** Signs up without using the confirmation link sign-up e-mails (no inviting, calls or payouts then). */
export const registerUnverified = async (api: Api, email: string, fullName = "Pessoa Teste"): Promise<User> => {
  const data = await api.post("/api/auth/register", { fullName, email, password: PASSWORD })
  return { id: data.id, email, token: data.token }
}

/** Verifies the account's e-mail for real: the newest verify-email link sent to it, used through confirm-email. */
export const verifyEmail = async (api: Api, user: User) => {
  const [mail] = await api.sql<{ body: string }>((sql) =>
    sql`SELECT body FROM outbox WHERE lower(recipient) = lower(${user.email}) AND kind = 'verify-email'
      ORDER BY created_at DESC LIMIT 1`
  )
  const link = /https?:\/\/\S+\/confirm-email\?\S+/.exec(mail!.body)![0]
  const url = new URL(link)
  await api.post("/api/auth/confirm-email", { id: url.searchParams.get("id"), token: url.searchParams.get("token") })
}

/** Signs up and uses the confirmation link, as people do before inviting anyone or requesting payouts. */
export const register = async (api: Api, email: string, fullName = "Pessoa Teste"): Promise<User> => {
  const user = await registerUnverified(api, email, fullName)
  await verifyEmail(api, user)
  return user
}

/** A registered, verified platform operator (their e-mail must be in the world's operators). */
export const operatorAccount = (api: Api, email: string) => register(api, email, "Olívia Operadora")

export const createCommunity = async (api: Api, owner: User, name = `Comunidade ${tag()}`) => {
  const data = await api.post("/api/communities", { name }, { token: owner.token })
  return { id: data.id as string, profileId: data.profileId as string, name }
}

/** A public section holding a courses space titled `title`; the space's id. */
export const coursesSpace = async (api: Api, owner: User, communityId: string, title: string) => {
  const scoped = { token: owner.token, community: communityId }
  const section = await api.post("/api/sections", { title: "Cursos", visibility: "public" }, scoped)
  const space = await api.post(
    "/api/spaces",
    { sectionId: section.id, title, module: "courses", visibility: "public" },
    scoped
  )
  return space.id as string
}

/** An active certificate template `name` of the space; its id. */
export const activeTemplate = async (api: Api, owner: User, communityId: string, spaceId: string, name: string) => {
  const scoped = { token: owner.token, community: communityId }
  const template = await api.post(
    "/api/certificates/templates",
    { spaceId, name, title: `Certificado ${name}` },
    scoped
  )
  await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, scoped)
  return template.id as string
}

/** The arguments of `roda certificates issue`: the operator `as` issues `template` of `space` to the CSV `file`. */
export const issueArgs = (to: { community: string; space: string; as: string }, template: string, file: string) => [
  "certificates",
  "issue",
  "--community",
  to.community,
  "--template",
  template,
  "--space",
  to.space,
  "--as",
  to.as,
  file
]

export const VALID_CNPJ = "11.222.333/0001-81"

/** Business information saved and submitted by the owner (waiting for an operator). */
export const submitBusiness = async (api: Api, owner: User, communityId: string) => {
  const scoped = { token: owner.token, community: communityId }
  await api.post(
    "/api/business-information",
    { country: "BR", legalName: "Roda Cursos Ltda", taxId: VALID_CNPJ },
    scoped
  )
  await api.post("/api/business-information/submit", {}, scoped)
}

/** A person added to the community by its staff (a new account, invited by e-mail): their profile id. */
export const addPerson = async (api: Api, staff: User, community: string, email: string, fullName: string) => {
  const profile = await api.post("/api/profiles/create", { email, fullName }, { token: staff.token, community })
  return profile.id as string
}

/** Payout settings (a PIX key) saved and submitted by the owner. */
export const submitPayoutSettings = async (api: Api, owner: User, communityId: string) => {
  const scoped = { token: owner.token, community: communityId }
  await api.post("/api/payout-settings", { method: "PIX", pixKey: "financeiro@roda.test" }, scoped)
  await api.post("/api/payout-settings/submit", {}, scoped)
}

/** A paid PIX sale through the real services (what checkout records): its net is available at once. */
export const recordSale = (api: Api, communityId: string, amount: number) =>
  api.roda.runtime.runPromise(Effect.gen(function*() {
    const amounts = yield* (yield* Pricing).price({
      communityId: CommunityId.make(communityId),
      amount,
      currency: "BRL",
      paymentMethod: "PIX",
      installments: 1
    })
    yield* (yield* LedgerPosting).recordSale({
      communityId: CommunityId.make(communityId),
      chargeId: `ch_${randomUUID()}`,
      amounts,
      paidAt: new Date(),
      description: "Ingresso"
    })
    return amounts
  }))
