import { type RodaHttpApp, routeOf } from "@roda/core/node"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Log } from "./log"

/** A client's `X-Request-Id` is kept when it is a plain token; otherwise one is made. */
const REQUEST_ID = /^[\w.:-]{1,128}$/
export const requestIdOf = (req: IncomingMessage) => {
  const given = req.headers["x-request-id"]
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID()
}

/** The client of a request: its socket's peer, or the client the trusted proxies name (`TRUST_PROXY`). */
export type ClientOf = RodaHttpApp["clientAddress"]

/** A request's header as one string (Node joins a repeated `X-Forwarded-For` or `Forwarded` with commas). */
export const headerOf = (req: IncomingMessage) => (name: string) => {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/** The request's line in the log, written once its answer is sent (the route template is looked up only then). */
export const logWhenSent = (
  log: Log,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
  started: number,
  clientAddress: string | undefined
) => {
  if (!res.writableFinished || !log.logsRequest(res.statusCode)) return
  const method = req.method ?? "GET"
  log.request({
    requestId,
    method,
    path,
    route: routeOf(method, path),
    clientAddress,
    status: res.statusCode,
    durationMs: performance.now() - started
  })
}
