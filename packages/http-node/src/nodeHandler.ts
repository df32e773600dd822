import type { RequestInfo, Roda } from "@roda/core"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"

/** What frameworks leave on a request once a body parser has read it (Express, body-parser, Koa-style). */
interface ParsedRequest extends IncomingMessage {
  readonly originalUrl?: string
  readonly _body?: boolean
}

/**
 * The body and raw body a parser left on the request. Read through this view rather than declared on
 * `ParsedRequest`: some parsers' types (`@koa/bodyparser`) declare them on `IncomingMessage` globally.
 */
const parsed = (req: IncomingMessage) => req as unknown as { readonly body?: unknown; readonly rawBody?: unknown }

export interface NodeHandlerOptions {
  /**
   * The peer's address, from which Roda finds the client (`RequestInfo.clientAddress`). Default: the
   * socket's remote address; behind a proxy, set Roda's `trustProxy` (`TRUST_PROXY`). A host that
   * resolves the client itself (Express's `req.ip` with its `trust proxy`) may pass that instead,
   * leaving `trustProxy` unset.
   */
  readonly clientAddress?: ((req: IncomingMessage) => string | undefined) | undefined
}

/** A Node `(req, res, next?)` handler: Express, Fastify (`reply.hijack()`), Koa (`ctx.respond = false`). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/** Whether something (a global `express.json()`, say) already read the request's body stream. */
const bodyConsumed = (req: ParsedRequest) =>
  req._body === true || req.readableEnded || (req as { readableDidRead?: boolean }).readableDidRead === true

const HOP_BY_HOP = new Set(["content-length", "transfer-encoding", "connection", "keep-alive"])

/**
 * The body a parser left behind, turned back into bytes: `req.rawBody` when the parser kept it,
 * else `req.body` as the parser found it (text or bytes), as JSON, or as a form.
 */
const reserialized = (req: ParsedRequest): BodyInit | undefined => {
  const { body, rawBody } = parsed(req)
  const raw = rawBody ?? body
  if (typeof raw === "string") return raw
  if (raw instanceof Uint8Array) return new Uint8Array(raw)
  if (body === undefined || body === null) return undefined
  const type = String(req.headers["content-type"] ?? "")
  if (/x-www-form-urlencoded/i.test(type)) {
    return new URLSearchParams(body as Record<string, string>).toString()
  }
  return JSON.stringify(body)
}

const headersOf = (req: IncomingMessage, replaced: boolean) => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || (replaced && HOP_BY_HOP.has(name))) continue
    if (Array.isArray(value)) { for (const each of value) headers.append(name, each) }
    else headers.set(name, value)
  }
  return headers
}

const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD"])

/** The web `Request` for a Node request: the stream itself, or the body a parser already read. */
export const toWebRequest = (req: ParsedRequest, signal: AbortSignal): Request => {
  const method = req.method ?? "GET"
  const host = req.headers.host ?? "localhost"
  const url = new URL(req.originalUrl ?? req.url ?? "/", `http://${host}`)
  if (METHODS_WITHOUT_BODY.has(method)) return new Request(url, { method, headers: headersOf(req, false), signal })
  if (bodyConsumed(req)) {
    const body = reserialized(req)
    return new Request(url, { method, headers: headersOf(req, true), signal, ...(body === undefined ? {} : { body }) })
  }
  return new Request(url, {
    method,
    headers: headersOf(req, false),
    signal,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: "half"
  } as RequestInit)
}

/** Writes a web `Response` to Node's `res`, streaming its body; stops when the client leaves. */
export const writeWebResponse = async (response: Response, res: ServerResponse) => {
  const headers: Record<string, string | Array<string>> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers["set-cookie"] = cookies
  res.writeHead(response.status, response.statusText, headers)
  if (response.body === null) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (res.destroyed) {
        await reader.cancel()
        return
      }
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve))
    }
    res.end()
  } catch (error) {
    res.destroy(error instanceof Error ? error : undefined)
  }
}

/**
 * Roda as a Node `(req, res)` handler, for Express, Fastify, Koa or `node:http`. The full path is
 * used (`req.originalUrl` under an Express mount), so mount it where `/api/...` reaches it. A body
 * already read by a global parser is re-serialized; the client leaving interrupts the request.
 */
export const toNodeHandler = (roda: Roda, options: NodeHandlerOptions = {}): NodeHandler => (req, res, next) => {
  const aborted = new AbortController()
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort()
  })
  const clientAddress = options.clientAddress ? options.clientAddress(req) : req.socket.remoteAddress
  const info: RequestInfo = { clientAddress }
  const answer = Promise.resolve().then(() => roda.handler(toWebRequest(req, aborted.signal), info))
  answer.then((response) => writeWebResponse(response, res)).catch((error: unknown) => {
    if (next) return next(error)
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json" })
      res.end(JSON.stringify({ success: false, code: "internal_error", message: "Internal server error." }))
    } else res.destroy()
  })
}
