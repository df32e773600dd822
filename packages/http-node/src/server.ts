import { makeRoda, type Roda } from "@roda/core"
import { Effect, Runtime } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { ServerConfig } from "./config"

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

const toWebRequest = (req: IncomingMessage): Request => {
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
    duplex: "half"
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

/** Health and readiness are answered here; everything else goes to Roda's web handler. */
const handle = (roda: Roda, log: (line: string) => void) => async (req: IncomingMessage, res: ServerResponse) => {
  const started = performance.now()
  const path = (req.url ?? "/").split("?")[0] ?? "/"
  res.on("finish", () => log(`${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`))
  try {
    if (path === "/healthz") return json(res, 200, { status: "ok" })
    if (path === "/readyz") {
      return await roda.ready().then(
        () => json(res, 200, { status: "ready" }),
        () => json(res, 503, { status: "unavailable" })
      )
    }
    await writeResponse(req, res, await roda.handler(toWebRequest(req), { clientAddress: req.socket.remoteAddress }))
  } catch (error) {
    log(`error ${String(error)}`)
    if (!res.headersSent) {
      settleUnreadBody(req, res)
      json(res, 500, { success: false, message: "Internal server error." })
    } else res.end()
  }
}

/**
 * Starts the HTTP server in a scope: closing the scope stops accepting connections, lets requests
 * in flight finish, then releases the database.
 */
export const serve = (config: ServerConfig) =>
  Effect.gen(function*() {
    const roda = yield* Effect.acquireRelease(
      Effect.sync(() => makeRoda({ database: config.database, options: config.options })),
      (roda) => Effect.promise(() => roda.dispose())
    )
    yield* Effect.promise(() => roda.ready())
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const log = (line: string) => runFork(Effect.logInfo(line))
    const server = yield* Effect.acquireRelease(
      Effect.async<ReturnType<typeof createServer>>((resume) => {
        const server = createServer(handle(roda, log))
        server.once("error", (error) => resume(Effect.die(error)))
        server.listen(config.port, config.host, () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.logInfo("Shutting down: finishing requests in flight").pipe(
          Effect.zipRight(Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
            server.closeIdleConnections()
          }))
        )
    )
    const address = server.address() as AddressInfo
    yield* Effect.logInfo(
      `Roda listening on http://${address.address}:${address.port} (${
        config.database._tag === "Postgres" ? "PostgreSQL" : `embedded database: ${config.database.dataDir}`
      })`
    )
    return { port: address.port, roda }
  })
