import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js"
import { MAX_BODY_BYTES, McpAccess, type McpCaller, McpUnauthorized, readAtMost, type Roda } from "@roda/core"
import { Effect, Either } from "effect"
import { type Language, missingScope, toolNamed } from "./call"
import { makeServer, SERVER_VERSION } from "./server"
import { tools } from "./tools"

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const languageOf = (request: Request): Language => {
  const first = request.headers.get("accept-language")?.split(",")[0]?.trim().toLowerCase() ?? ""
  return first.startsWith("en") ? "en" : "pt"
}

interface JsonRpcMessage {
  readonly id?: string | number
  readonly method?: string
  readonly params?: { readonly name?: unknown; readonly protocolVersion?: unknown; readonly arguments?: unknown }
}

const messagesOf = (body: unknown): ReadonlyArray<JsonRpcMessage> =>
  (Array.isArray(body) ? body : [body]).filter((m): m is JsonRpcMessage => typeof m === "object" && m !== null)

/** The first `tools/call` of the request whose tool needs a scope the token lacks. */
const scopeRefusal = (caller: McpCaller, messages: ReadonlyArray<JsonRpcMessage>) => {
  for (const message of messages) {
    if (message.method !== "tools/call") continue
    const tool = toolNamed(String(message.params?.name))
    const scope = tool && missingScope(caller, tool)
    if (tool && scope) return { tool, scope, message }
  }
  return undefined
}

/**
 * Roda's MCP endpoint as a web handler (`Request -> Response`), for the Node server's `/mcp` and for
 * embedders. Every request is authenticated with its own Bearer token (no session stands in for
 * it); the server keeps no session state (`Mcp-Session-Id` is neither issued nor needed) and
 * answers each POST with JSON.
 */
export const makeMcpHandler = (roda: Roda) => {
  let access: Promise<McpAccess["Type"]> | undefined
  return async (request: Request): Promise<Response> => {
    const mcp = await (access ??= roda.runtime.runPromise(McpAccess))
    const unauthorized = (description: string) =>
      json(401, { error: "invalid_token", error_description: description }, { "www-authenticate": mcp.challenge })
    const token = /^Bearer +([^\s]+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]
    if (token === undefined) return unauthorized("A Bearer access token is required.")
    const authenticated = await roda.runtime.runPromise(Effect.either(mcp.authenticate(token)))
    if (Either.isLeft(authenticated)) {
      const refused = authenticated.left
      if (refused instanceof McpUnauthorized) return unauthorized(refused.reason)
      // an API key of another community, whose creator left it, or past its limit
      return json(refused.status, {
        error: refused.code,
        error_description: refused.text[languageOf(request)]
      }, { ...refused.headers })
    }
    const caller = authenticated.right
    if (request.method !== "POST") {
      return json(405, { error: "method_not_allowed", error_description: "POST JSON-RPC messages to /mcp." }, {
        allow: "POST"
      })
    }
    const tooLarge = () =>
      json(413, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Message too large" } })
    if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) return tooLarge()
    // Read up to the limit only: a body that never ends is cut there, not held in memory.
    const bytes = request.body === null ? new Uint8Array() : await readAtMost(request.body, MAX_BODY_BYTES)
    if (bytes === undefined) return tooLarge()
    const text = new TextDecoder().decode(bytes)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return json(400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
    }
    const messages = messagesOf(body)
    const refused = scopeRefusal(caller, messages)
    if (refused) {
      await roda.runtime.runPromise(mcp.recordCall({
        caller,
        tool: refused.tool.name,
        arguments: refused.message.params?.arguments ?? {},
        outcome: "error",
        error: `insufficient_scope: ${refused.scope}`,
        durationMs: 0
      }))
      return json(403, {
        error: "insufficient_scope",
        error_description: `The tool ${refused.tool.name} needs the "${refused.scope}" scope.`
      }, { "www-authenticate": mcp.insufficientScope(refused.scope) })
    }
    const server = makeServer(roda, caller, languageOf(request))
    // No `sessionIdGenerator`: stateless.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      const forwarded = new Request(request.url, { method: "POST", headers: request.headers, body: text })
      const response = await transport.handleRequest(forwarded, {
        parsedBody: body,
        authInfo: { token, clientId: caller.clientName, scopes: [...caller.scopes] }
      })
      const initialize = messages.find((message) => message.method === "initialize")
      if (initialize && caller.connectionId !== null && response.ok) {
        const requested = String(initialize.params?.protocolVersion ?? "")
        await roda.runtime.runPromise(mcp.recordSession(caller.connectionId, {
          protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
          serverVersion: SERVER_VERSION,
          tools: tools.map((tool) => tool.name)
        }))
      }
      // The JSON answer is complete: the body is read before the server is closed.
      const answer = await response.arrayBuffer()
      return new Response(answer.byteLength === 0 ? null : answer, {
        status: response.status,
        headers: response.headers
      })
    } finally {
      await server.close()
    }
  }
}
