import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { Roda } from "../../src/index"
import { type Client, client, startRoda } from "./harness"

/** A PKCE verifier and its S256 challenge. */
export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

export const REDIRECT_URI = "http://127.0.0.1/callback"

/** A form body for `/oauth/token` and `/oauth/revoke`. */
export const form = (fields: Record<string, string | undefined>) => ({
  raw: new URLSearchParams(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined)
  ).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" }
})

export interface McpConnection {
  readonly accessToken: string
  readonly refreshToken: string
  readonly clientId: string
  readonly connectionId: string
  readonly scope: string
}

/**
 * An MCP access token for `user` in `communityId`, through the real routes: registration, authorize
 * (PKCE S256), consent through `/api/oauth/authorize/consent` with the user's `/api` token, code exchange.
 * Works with `client(startRoda())` (no HTTP server needed); the token's audience is
 * `${publicBaseUrl}/mcp` of that Roda (`http://roda.test/mcp` with `startRoda()`).
 */
export const connectMcpClient = async (
  api: Client,
  user: { readonly token: string },
  communityId: string,
  options: { readonly scope?: string; readonly clientName?: string } = {}
): Promise<McpConnection> => {
  const registered = await api.post("/oauth/register", {
    redirect_uris: [REDIRECT_URI],
    client_name: options.clientName ?? "Test assistant"
  })
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`)
  const clientId: string = registered.body.client_id
  const { challenge, verifier } = pkce()
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-1",
    ...(options.scope === undefined ? {} : { scope: options.scope })
  })
  const authorized = await api.get(`/oauth/authorize?${query}`)
  const location = authorized.headers.get("location")
  if (authorized.status !== 302 || location === null) throw new Error(`authorize: ${authorized.status}`)
  const requestId = new URL(location).searchParams.get("request_id")
  const consent = await api.post("/api/oauth/authorize/consent", { requestId, communityId }, { token: user.token })
  if (consent.status !== 200) throw new Error(`consent: ${consent.status} ${JSON.stringify(consent.body)}`)
  const code = new URL(consent.body.data.redirectTo).searchParams.get("code")!
  const exchanged = await api.call(
    "POST",
    "/oauth/token",
    form({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: clientId
    })
  )
  if (exchanged.status !== 200) throw new Error(`token: ${exchanged.status} ${JSON.stringify(exchanged.body)}`)
  const listed = await api.get("/api/oauth/connections", { token: user.token, community: communityId })
  const connection = (listed.body.data as Array<{ id: string; client: { id: string } }>).find((c) =>
    c.client.id === clientId
  )
  if (connection === undefined) throw new Error(`connection not listed: ${JSON.stringify(listed.body)}`)
  return {
    accessToken: exchanged.body.access_token,
    refreshToken: exchanged.body.refresh_token,
    clientId,
    connectionId: connection.id,
    scope: exchanged.body.scope
  }
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** `GET /oauth/authorize` for `clientId` (a loopback redirect, a fixed S256 challenge): where its client resolves. */
export const authorizeAs = (api: Client, clientId: string) =>
  api.get(
    `/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "http://127.0.0.1/cb",
      code_challenge: "a".repeat(43),
      code_challenge_method: "S256"
    })}`
  )

export interface ServedRoda {
  readonly roda: Roda
  readonly api: Client
  /** `http://127.0.0.1:<port>`, also Roda's publicBaseUrl (so the issuer and the MCP resource are real URLs). */
  readonly base: string
  readonly close: () => Promise<void>
}

/**
 * Roda's web handler behind a node:http server on a free port, with `publicBaseUrl` set to that
 * server's URL: for clients that need real HTTP (oauth4webapi, a browser, the MCP SDK).
 */
export const serveRoda = async (
  overrides: Partial<Parameters<typeof startRoda>[0]> = {}
): Promise<ServedRoda> => {
  // The server starts first: its port is Roda's publicBaseUrl.
  const started: { roda?: Roda } = {}
  const server: Server = createServer(async (request, response) => {
    try {
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readBody(request)
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers.set(name, value)
        else if (Array.isArray(value)) headers.set(name, value.join(", "))
      }
      const answer = await started.roda!.handler(
        new Request(`${base}${request.url}`, {
          method: request.method ?? "GET",
          headers,
          ...(body === undefined || body.length === 0 ? {} : { body })
        }),
        { clientAddress: request.socket.remoteAddress ?? "127.0.0.1" }
      )
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      response.end(Buffer.from(await answer.arrayBuffer()))
    } catch (error) {
      response.writeHead(500).end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  const roda = started.roda = startRoda({ publicBaseUrl: base, ...overrides })
  return {
    roda,
    api: client(roda),
    base,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await roda.dispose()
    }
  }
}
