import { makeRoda, type Roda } from "@roda/core"
import { Effect, Runtime } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import type { ServerConfig } from "./config"

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
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: "half"
  } as RequestInit)
}

const writeResponse = async (res: ServerResponse, response: Response) => {
  res.statusCode = response.status
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
    await writeResponse(res, await roda.handler(toWebRequest(req), { clientAddress: req.socket.remoteAddress }))
  } catch (error) {
    log(`error ${String(error)}`)
    if (!res.headersSent) json(res, 500, { success: false, message: "Internal server error." })
    else res.end()
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
