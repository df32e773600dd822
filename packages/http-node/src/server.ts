import { Etag, FetchHttpClient, FileSystem, HttpIncomingMessage, HttpPlatform, Path } from "@effect/platform"
import {
  type AnswerAtOnce,
  type InFlight,
  makeInFlight,
  makeRoda,
  MAX_BODY_BYTES,
  type Roda,
  type RodaStartError,
  stripeGateway
} from "@roda/core/node"
import { Cause, Context, Effect, Layer, Option, Runtime } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { resolve } from "node:path"
import { Readable } from "node:stream"
import { makeAppHandler, writeInMemory } from "./appHandler"
import type { ServerConfig, TelemetrySettings } from "./config"
import { type IdleCollection, idleCollection } from "./idleCollection"
import { defaultLogSettings, type Log, logTo, makeLog, openingMessage } from "./log"
import { MCP_PATH, serveMcp } from "./mcp"
import { type ClientOf, headerOf, logWhenSent, requestIdOf } from "./requestLine"

/**
 * A chunked body (no Content-Length) is read here, up to one chunk past the 1 MB limit, and
 * replayed to the app: the app's own limit would destroy the socket before its 413 is written. What
 * is left of a refused body is drained after the answer (`settleUnreadBody`).
 */
const replayChunked = async (req: IncomingMessage): Promise<IncomingMessage> => {
  const chunks: Array<Buffer> = []
  let size = 0
  await new Promise<void>((resolve, reject) => {
    const stop = () => {
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.byteLength
      if (size > MAX_BODY_BYTES) {
        stop()
        req.pause()
        resolve()
      }
    }
    const onEnd = () => {
      stop()
      resolve()
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    req.on("data", onData)
    req.once("end", onEnd)
    req.once("error", onError)
  })
  const body = Buffer.concat(chunks)
  const replay = new Readable({
    read() {
      this.push(body)
      this.push(null)
    }
  })
  return Object.assign(replay, {
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    method: req.method,
    url: req.url,
    httpVersion: req.httpVersion,
    socket: req.socket
  }) as unknown as IncomingMessage
}

const isChunked = (req: IncomingMessage) =>
  req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined

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
    if (req.complete || req.destroyed) return
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

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/**
 * The requests running, each until every part of it has ended (`requestInFlight`): its response
 * closed, its fiber ended, and any asynchronous work of its own (readiness, MCP, a chunked body
 * being read) settled. A stop interrupts what still runs by closing every connection.
 */
interface Running {
  readonly requests: InFlight
  /** Set once stopping: answers close their connection instead of keeping it alive. */
  stopping: boolean
}

/**
 * Roda's app on Node's request and response; `ended` is called once the request's fiber has ended;
 * `clientAddress` is the request's client (`RodaHttpApp.clientAddress`).
 */
type NodeHandler = (req: IncomingMessage, res: ServerResponse, ended: () => void, clientAddress?: string) => void

/**
 * Health and readiness are answered here; so are the app's answers that need no fiber (a constant
 * route's, `answerAtOnce`); everything else goes straight to Roda's HttpApp (no web
 * `Request`/`Response` in between). Every answer carries `X-Request-Id` and is logged in one line
 * once sent. A client that leaves before its answer is written (its connection closed) interrupts
 * the handler's fiber; so does a stop that has waited long enough (it closes the connection).
 *
 * A request is in flight until its response closes (sent, or its connection gone) and, for the
 * app, until its fiber has ended too (an interrupted handler may still be rolling back): a stop
 * waits for both before the database closes. One `close` listener ends the response's part and
 * writes the log line, with no promise per request.
 */
const handle = (
  roda: Roda,
  app: NodeHandler,
  answerAtOnce: AnswerAtOnce,
  clientOf: ClientOf,
  log: Log,
  running: Running,
  idle: IdleCollection
) =>
(req: IncomingMessage, res: ServerResponse) => {
  idle.touch()
  if (running.stopping) res.setHeader("connection", "close")
  const started = performance.now()
  const url = req.url ?? "/"
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  const requestId = requestIdOf(req)
  const clientAddress = clientOf(req.socket.remoteAddress, headerOf(req))
  res.setHeader("x-request-id", requestId)
  const part = requestInFlight(running.requests)
  const responseEnded = part()
  res.once("close", () => {
    responseEnded()
    logWhenSent(log, req, res, path, requestId, started, clientAddress)
  })
  if (path === "/healthz") return json(res, 200, { status: "ok" })
  if (path === "/readyz") {
    return track(
      part,
      roda.ready().then(
        () => json(res, 200, { status: "ready" }),
        () => json(res, 503, { status: "unavailable" })
      )
    )
  }
  if (path === MCP_PATH) {
    return track(
      part,
      serveMcp(roda, req, res).catch((error) => answerFailure(log, req, res, requestId, error))
    )
  }
  const atOnce = answerAtOnce({ method: req.method ?? "GET", url, headers: req.headers })
  if (atOnce !== undefined && writeInMemory(res, atOnce)) return
  settleUnreadBody(req, res)
  if (!isChunked(req)) return runApp(app, log, part, req, res, requestId, clientAddress)
  track(
    part,
    replayChunked(req).then(
      (replayed) => runApp(app, log, part, replayed, res, requestId, clientAddress),
      (error) => answerFailure(log, req, res, requestId, error)
    )
  )
}

const noAnswerAtOnce: AnswerAtOnce = () => undefined

/**
 * A request counted in flight until each of its parts has ended: its response (closed), and for
 * the app its fiber. `part()` opens one and returns what ends it (once).
 */
const requestInFlight = (requests: InFlight) => {
  let open = 0
  let leave = () => {}
  return () => {
    if (open++ === 0) leave = requests.enter()
    let ended = false
    return () => {
      if (ended) return
      ended = true
      if (--open === 0) leave()
    }
  }
}

const runApp = (
  app: NodeHandler,
  log: Log,
  part: () => () => void,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  clientAddress: string | undefined
) => {
  const ended = part()
  try {
    app(req, res, ended, clientAddress)
  } catch (error) {
    ended()
    answerFailure(log, req, res, requestId, error)
  }
}

/** Keeps a request in flight while asynchronous work of its own (readiness, MCP, a chunked body being read) runs. */
const track = (part: () => () => void, work: Promise<void>) => {
  const done = part()
  work.then(done, done)
}

/** A failure outside the app's own error handling: logged, and answered with a 500 if nothing was sent. */
const answerFailure = (log: Log, req: IncomingMessage, res: ServerResponse, requestId: string, error: unknown) => {
  if (res.closed) return
  log.write("error", "request failed", { requestId, error: String(error) })
  if (!res.headersSent) {
    settleUnreadBody(req, res)
    json(res, 500, { success: false, code: "internal_error", message: "Internal server error." })
  } else res.end()
}

/**
 * The runtime each request's fiber starts from: Roda's, with its context cut down to what the HttpApp
 * reads from it while answering (`HttpRouter.DefaultServices`). Handlers and middleware keep the
 * services they were built with (each group merges its own context in), so nothing else is looked up
 * per request; but every `provideService` on the request's fiber (the request, the route, the search
 * params, the scope, the caller) copies the whole context, and a context of all ~80 services made
 * each copy (and the garbage) that much larger.
 */
const requestRuntime = <R>(runtime: Runtime.Runtime<R>) =>
  Runtime.make({
    context: Context.pick(HttpPlatform.HttpPlatform, FileSystem.FileSystem, Path.Path, Etag.Generator)(
      runtime.context as Context.Context<
        HttpPlatform.HttpPlatform | FileSystem.FileSystem | Path.Path | Etag.Generator
      >
    ).pipe(
      // Every body is read within Roda's limit: the request gate then need not set it per request.
      Context.add(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(MAX_BODY_BYTES)))
    ),
    fiberRefs: runtime.fiberRefs,
    runtimeFlags: runtime.runtimeFlags
  })

/** Spans exported over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`, batched every 5 seconds. */
const otlpTracer = (telemetry: TelemetrySettings) =>
  // Loaded only when tracing is on: the module costs every start ~150 ms.
  Effect.promise(() => import("@effect/opentelemetry")).pipe(
    Effect.flatMap(({ OtlpSerialization, OtlpTracer }) =>
      OtlpTracer.make({ url: `${telemetry.endpoint}/v1/traces`, resource: { serviceName: telemetry.serviceName } })
        .pipe(Effect.provide(Layer.merge(FetchHttpClient.layer, OtlpSerialization.layerJson)))
    )
  )

/** How long a stop waits for the handlers in flight before interrupting them. */
const DEFAULT_GRACE_MS = 10_000
/** How long interrupted handlers are given to finish (roll back, release connections). */
const INTERRUPT_GRACE_MS = 2_000
/**
 * Stops accepting connections, waits (at most `graceMs`) for the handlers in flight, interrupts
 * those still running, then closes every connection left (idle keep-alive ones included).
 */
const stop = async (server: Server, running: Running, log: Log, graceMs: number) => {
  running.stopping = true
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  if (!(await running.requests.settled(graceMs))) {
    log.write("warn", "Shutting down: interrupting requests still running", { count: running.requests.running() })
    // A request whose connection closes interrupts its handler (see `appHandler.ts`).
    server.closeAllConnections()
    await running.requests.settled(INTERRUPT_GRACE_MS)
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
    const log = makeLog(config.log ?? defaultLogSettings(), options.logSink)
    yield* Effect.addFinalizer(() => Effect.sync(log.flush))
    log.write("info", openingMessage(config.database))
    const roda = yield* Effect.acquireRelease(
      Effect.sync(() =>
        makeRoda({
          database: config.database,
          options: config.options,
          logger: logTo(log),
          ...(config.stripe ? { paymentGateway: stripeGateway(config.stripe) } : {}),
          ...(config.telemetry ? { tracer: otlpTracer(config.telemetry) } : {})
        })
      ),
      (roda) => Effect.promise(() => roda.dispose())
    )
    // The HTTP app is built while the database opens and migrates (an embedded one lets it), and
    // both are done before the first connection is accepted.
    const building = roda.httpApp()
    building.catch(() => undefined) // a database that cannot be used is reported by `ready`
    yield* Effect.tryPromise({ try: () => roda.ready(), catch: (error) => error as RodaStartError })
    const running: Running = { requests: makeInFlight(), stopping: false }
    const { answerAtOnce, app, clientAddress, runtime } = yield* Effect.promise(() => building)
    const tracing = config.telemetry !== undefined
    const nodeHandler = makeAppHandler(app, requestRuntime(runtime), {
      tracing,
      onFailure: (cause) => log.write("error", "request failed", { error: Cause.pretty(cause) })
    })
    const idle = yield* Effect.acquireRelease(Effect.sync(() => idleCollection()), (idle) => Effect.sync(idle.stop))
    const server = yield* Effect.acquireRelease(
      Effect.async<Server>((resume) => {
        const server = createServer(
          // With tracing on, every request goes through the app, which opens its server span.
          handle(roda, nodeHandler, tracing ? noAnswerAtOnce : answerAtOnce, clientAddress, log, running, idle)
        )
        server.once("error", (error) => resume(Effect.die(error)))
        server.listen(config.port, config.host, () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.sync(() => log.write("info", "Shutting down: finishing requests in flight")).pipe(
          Effect.zipRight(Effect.promise(() => stop(server, running, log, options.graceMs ?? DEFAULT_GRACE_MS)))
        )
    )
    const address = server.address() as AddressInfo
    log.write(
      "info",
      `Roda listening on http://${address.address}:${address.port} (${
        config.database._tag === "Postgres"
          ? "PostgreSQL"
          : `embedded database: ${config.database.dataDir === "memory" ? "memory" : resolve(config.database.dataDir)}`
      })`
    )
    return {
      port: address.port,
      roda,
      /** How many requests are being handled (for probes and tests). */
      inFlight: () => running.requests.running()
    }
  })
