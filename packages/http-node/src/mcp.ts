import type { Roda } from "@roda/core"
import type { IncomingMessage, ServerResponse } from "node:http"
import { toWebRequest, writeWebResponse } from "./nodeHandler"

/** The MCP endpoint (streamable HTTP, OAuth bearer tokens), served beside the API. */
export const MCP_PATH = "/mcp"

const handlers = new WeakMap<Roda, (request: Request) => Promise<Response>>()

/** `@roda/mcp` (the MCP SDK, zod, ajv) is loaded on the first MCP request: it costs every start ~150 ms. */
const loadMcp = () => import("@roda/mcp")

/** Answers a request to `/mcp` with `@roda/mcp`'s web handler; the client leaving aborts it. */
export const serveMcp = async (roda: Roda, req: IncomingMessage, res: ServerResponse) => {
  let handler = handlers.get(roda)
  if (handler === undefined) {
    const { makeMcpHandler } = await loadMcp()
    // Another first request may have made it while this one waited for the module.
    handler = handlers.get(roda) ?? makeMcpHandler(roda)
    handlers.set(roda, handler)
  }
  const left = new AbortController()
  res.once("close", () => left.abort())
  await writeWebResponse(await handler(toWebRequest(req, left.signal)), res)
}
