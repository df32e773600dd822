import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { loadRodaEnvironmentWith, makeRoda, McpAccess } from "@roda/core/node"
import { Cause, ConfigProvider, Effect, Either, Runtime } from "effect"
import type { Language } from "./call"
import { makeServer } from "./server"

/**
 * Thrown when the local server cannot start (missing or refused credentials, bad configuration, a
 * database it cannot open). `startup`: the environment or the database was the reason, a line each.
 */
export class StdioStartError extends Error {
  override readonly name = "StdioStartError"
  constructor(message: string, readonly startup = false) {
    super(message)
  }
}

/** The reason a start failed, as lines: every problem of the environment, or the database's reason. */
const startupFailure = (error: unknown) => {
  const root = Runtime.isFiberFailure(error) ? Cause.squash(error[Runtime.FiberFailureCauseId]) : error
  return new StdioStartError(root instanceof Error ? root.message : String(root), true)
}

export interface StdioOptions {
  /** The environment to read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

/**
 * stdout carries JSON-RPC only: whatever would print there (Effect's logger, a library's
 * `console.log`) goes to stderr.
 */
const keepStdoutForProtocol = () => {
  const toStderr = (...args: Array<unknown>) => console.error(...args)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
}

/**
 * Serves Roda's MCP tools over stdio for an assistant on the same machine, in-process against the
 * configured database (the same environment as the HTTP server). Credentials come from the
 * environment, never from tool arguments: `RODA_API_KEY` (a key of `POST /api/api-keys`, acting in
 * its community within its scopes), or `RODA_TOKEN` (an access token of `POST /api/auth/login`, which
 * ends with its session) and `RODA_COMMUNITY_ID`; either is checked again before each tool call; `RODA_LANGUAGE=en` answers in English. Links (invitations, certificates)
 * use `PUBLIC_BASE_URL` when set, else the URL the server recorded when it last started (else
 * `http://localhost:$PORT`). Resolves when stdin closes.
 */
export const serveStdio = async (options: StdioOptions = {}) => {
  keepStdoutForProtocol()
  const env = options.env ?? process.env
  const apiKey = env.RODA_API_KEY?.trim()
  const token = apiKey || env.RODA_TOKEN?.trim()
  const communityId = env.RODA_COMMUNITY_ID?.trim() || undefined
  if (!token || (!apiKey && !communityId)) {
    throw new StdioStartError(
      "RODA_API_KEY (an API key from POST /api/api-keys), or RODA_TOKEN (an access token from POST /api/auth/login) and RODA_COMMUNITY_ID, are required"
    )
  }
  // Like any program but the server, it refuses a DATA_DIR that does not exist (a typo in an
  // assistant's configuration would open a new, empty database).
  const load = loadRodaEnvironmentWith({ connect: true, missingDataDir: "refuse" })
  const environment = await Effect.runPromise(
    options.env === undefined
      ? load
      : Effect.withConfigProvider(
        load,
        ConfigProvider.fromMap(
          new Map(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined))
        )
      )
  ).catch((error: unknown) => Promise.reject(startupFailure(error)))
  // Not the server: without a PUBLIC_BASE_URL of its own, links use the one the server recorded.
  const roda = makeRoda({
    database: environment.database,
    options: environment.options,
    publicUrl: environment.publicBaseUrlGiven ? "given" : "recorded"
  })
  try {
    await roda.ready().catch((error: unknown) => Promise.reject(startupFailure(error)))
    // Checked again before every tool call: a revoked key or an ended session stops the next one.
    const authenticate = Effect.flatMap(McpAccess, (access) => access.authenticateLocal(token, communityId))
    const authenticated = await roda.runtime.runPromise(Effect.either(authenticate))
    if (Either.isLeft(authenticated)) {
      throw new StdioStartError(`${authenticated.left.status} ${authenticated.left.text.en}`)
    }
    const caller = authenticated.right
    const language: Language = env.RODA_LANGUAGE?.toLowerCase().startsWith("en") ? "en" : "pt"
    const inFlight = new Set<Promise<unknown>>()
    const server = makeServer(roda, caller, language, inFlight, authenticate)
    const transport = new StdioServerTransport()
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve
      process.stdin.once("end", resolve)
      process.once("SIGINT", resolve)
      process.once("SIGTERM", resolve)
    })
    await server.connect(transport)
    const via = caller.apiKey ? ` through ${caller.clientName}` : ""
    console.error(
      `Roda MCP (stdio): ${caller.member.account.email} as ${caller.member.role} in ${caller.member.communityId}${via}`
    )
    await closed
    // stdin may end right after the last request: its answer is still written (the SDK sends it a
    // few microtasks after the call settles, and drops it once the server is closed).
    do {
      await new Promise((resolve) => setImmediate(resolve))
      await Promise.allSettled([...inFlight])
      await new Promise((resolve) => setImmediate(resolve))
    } while (inFlight.size > 0)
    await server.close()
  } finally {
    await roda.dispose()
  }
}
