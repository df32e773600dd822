import { makeRoda, type Roda } from "@roda/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { ServerConfig } from "./config"
import { defaultLogSettings, type Log, makeLog } from "./log"

/**
 * The request body as a web stream. Unlike `Readable.toWeb`, cancelling it (Roda stops reading a
 * body over 1 MB) only stops reading: destroying the request would reset the socket before the
 * 413 is written, and would kill a keep-alive connection.
 */
const bodyOf = (req: IncomingMessage) => {
  let open = true
  const onData = (chunk: Buffer) => {
    if (!open) return
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    if ((controller.desiredSize ?? 0) <= 0) req.pause()
  }
  const onEnd = () => {
    if (open) controller.close()
    open = false
  }
  const onError = (error: Error) => {
    if (open) controller.error(error)
    open = false
  }
  let controller!: ReadableStreamDefaultController<Uint8Array>
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
      req.on("data", onData)
      req.once("end", onEnd)
      req.once("error", onError)
    },
    pull() {
      req.resume()
    },
    cancel() {
      open = false
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
      req.pause()
    }
  })
}

/** At most this much of a refused body is read and discarded to keep its connection usable. */
const DRAIN_LIMIT = 8 * 1024 * 1024

/**
 * A request answered before its body was read (a 413, say): the rest of the body is read and
 * discarded, up to `DRAIN_LIMIT`, so the next request on a keep-alive connection is parsed; a body
 * that is declared larger closes the connection (`Connection: close`), and one that turns out
 * larger resets it.
 */
const settleUnreadBody = (req: IncomingMessage, res: ServerResponse) => {
  if (req.complete || req.method === "GET" || req.method === "HEAD") return
  const declared = Number(req.headers["content-length"] ?? "0")
  if (declared > DRAIN_LIMIT) {
    res.setHeader("connection", "close")
    return
  }
  res.once("finish", () => {
    let drained = 0
    // The body stream is done with (it may still hold a paused listener): discard the rest.
    req.removeAllListeners("data")
    req.on("data", (chunk: Buffer) => {
      drained += chunk.byteLength
      if (drained > DRAIN_LIMIT) req.socket.destroy()
    })
    req.resume()
  })
}

const toWebRequest = (req: IncomingMessage, signal: AbortSignal): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v))
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    body: hasBody ? bodyOf(req) : null,
    duplex: "half",
    signal
  } as RequestInit)
}

const writeResponse = async (req: IncomingMessage, res: ServerResponse, response: Response) => {
  res.statusCode = response.status
  settleUnreadBody(req, res)
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  res.end(Buffer.from(await response.arrayBuffer()))
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** A client's `X-Request-Id` is kept when it is a plain token; otherwise one is made. */
const REQUEST_ID = /^[\w.:-]{1,128}$/
const requestIdOf = (req: IncomingMessage) => {
  const given = req.headers["x-request-id"]
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID()
}

/** The handlers running: each with the controller that interrupts it. */
interface InFlight {
  readonly handlers: Map<Promise<void>, AbortController>
  /** Set once stopping: answers close their connection instead of keeping it alive. */
  stopping: boolean
}

/**
 * Health and readiness are answered here; everything else goes to Roda's web handler. Every answer
 * carries `X-Request-Id` and is logged in one line once sent. A client that leaves before its
 * answer is written (its connection closed) aborts the request's signal, which interrupts the
 * handler's fiber.
 */
const handle = (roda: Roda, log: Log, inFlight: InFlight) => (req: IncomingMessage, res: ServerResponse) => {
  const abort = new AbortController()
  res.once("close", () => {
    if (!res.writableFinished) abort.abort()
  })
  if (inFlight.stopping) res.setHeader("connection", "close")
  const done = respond(roda, log, req, res, abort.signal).finally(() => inFlight.handlers.delete(done))
  inFlight.handlers.set(done, abort)
}

const respond = async (roda: Roda, log: Log, req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => {
  const started = performance.now()
  const url = req.url ?? "/"
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  const requestId = requestIdOf(req)
  res.setHeader("x-request-id", requestId)
  res.once("finish", () =>
    log.request({
      requestId,
      method: req.method ?? "GET",
      path,
      status: res.statusCode,
      durationMs: performance.now() - started
    }))
  try {
    if (path === "/healthz") return json(res, 200, { status: "ok" })
    if (path === "/readyz") {
      return await roda.ready().then(
        () => json(res, 200, { status: "ready" }),
        () => json(res, 503, { status: "unavailable" })
      )
    }
    const response = await roda.handler(toWebRequest(req, signal), { clientAddress: req.socket.remoteAddress })
    if (signal.aborted) return
    await writeResponse(req, res, response)
  } catch (error) {
    // A client that left mid-body: nothing to answer, nothing wrong on this side.
    if (signal.aborted) return
    log.write("error", "request failed", { requestId, error: String(error) })
    if (!res.headersSent) {
      settleUnreadBody(req, res)
      json(res, 500, { success: false, message: "Internal server error." })
    } else res.end()
  }
}

/** How long a stop waits for the handlers in flight before interrupting them. */
const DEFAULT_GRACE_MS = 10_000
/** How long interrupted handlers are given to finish (roll back, release connections). */
const INTERRUPT_GRACE_MS = 2_000

/** Resolves when every handler in flight has settled, or after `ms`; true when they all did. */
const settled = async (inFlight: InFlight, ms: number) => {
  const deadline = Date.now() + ms
  while (inFlight.handlers.size > 0) {
    const left = deadline - Date.now()
    if (left <= 0) return false
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.allSettled([...inFlight.handlers.keys()]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, left)
      })
    ])
    clearTimeout(timer)
  }
  return true
}

/**
 * Stops accepting connections, waits (at most `graceMs`) for the handlers in flight, interrupts
 * those still running, then closes every connection left (idle keep-alive ones included).
 */
const stop = async (server: Server, inFlight: InFlight, log: Log, graceMs: number) => {
  inFlight.stopping = true
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  if (!(await settled(inFlight, graceMs))) {
    log.write("warn", "Shutting down: interrupting requests still running", { count: inFlight.handlers.size })
    for (const abort of inFlight.handlers.values()) abort.abort()
    await settled(inFlight, INTERRUPT_GRACE_MS)
  }
  server.closeAllConnections()
  await closed
}

export interface ServeOptions {
  readonly logSink?: (chunk: string) => void
  /** How long a stop waits for requests in flight before interrupting them (default 10 s). */
  readonly graceMs?: number
}

/**
 * Starts the HTTP server in a scope. Closing the scope (SIGTERM, SIGINT) stops accepting
 * connections, lets the handlers in flight finish (interrupting those still running after
 * `graceMs`), and only then releases the database.
 */
export const serve = (config: ServerConfig, options: ServeOptions = {}) =>
  Effect.gen(function*() {
    const roda = yield* Effect.acquireRelease(
      Effect.sync(() => makeRoda({ database: config.database, options: config.options })),
      (roda) => Effect.promise(() => roda.dispose())
    )
    const log = makeLog(config.log ?? defaultLogSettings(), options.logSink)
    yield* Effect.addFinalizer(() => Effect.sync(log.flush))
    yield* Effect.promise(() => roda.ready())
    const inFlight: InFlight = { handlers: new Map(), stopping: false }
    const server = yield* Effect.acquireRelease(
      Effect.async<Server>((resume) => {
        const server = createServer(handle(roda, log, inFlight))
        server.once("error", (error) => resume(Effect.die(error)))
        server.listen(config.port, config.host, () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.sync(() => log.write("info", "Shutting down: finishing requests in flight")).pipe(
          Effect.zipRight(Effect.promise(() => stop(server, inFlight, log, options.graceMs ?? DEFAULT_GRACE_MS)))
        )
    )
    const address = server.address() as AddressInfo
    log.write(
      "info",
      `Roda listening on http://${address.address}:${address.port} (${
        config.database._tag === "Postgres" ? "PostgreSQL" : `embedded database: ${config.database.dataDir}`
      })`
    )
    return {
      port: address.port,
      roda,
      /** How many requests are being handled (for probes and tests). */
      inFlight: () => inFlight.handlers.size
    }
  })
