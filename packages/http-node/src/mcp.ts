import type { Roda } from "@roda/core"
import { makeMcpHandler } from "@roda/mcp"
import type { IncomingMessage, ServerResponse } from "node:http"
import { toWebRequest, writeWebResponse } from "./nodeHandler"

/** The MCP endpoint (streamable HTTP, OAuth bearer tokens), served beside the API. */
export const MCP_PATH = "/mcp"

const handlers = new WeakMap<Roda, (request: Request) => Promise<Response>>()

/** Answers a request to `/mcp` with `@roda/mcp`'s web handler; the client leaving aborts it. */
export const serveMcp = async (roda: Roda, req: IncomingMessage, res: ServerResponse) => {
  let handler = handlers.get(roda)
  if (handler === undefined) {
    handler = makeMcpHandler(roda)
    handlers.set(roda, handler)
  }
  const left = new AbortController()
  res.once("close", () => left.abort())
  await writeWebResponse(await handler(toWebRequest(req, left.signal)), res)
}
