import { Cookies, HttpApp, HttpServerError, HttpServerRequest, HttpTraceContext } from "@effect/platform"
import type { HttpServerResponse } from "@effect/platform"
import { ClientAddress } from "@roda/core/node"
import { Cause, Chunk, Context, Effect, Exit, Option, Runtime, Scope, Stream } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { NodeServerRequest } from "./nodeServerRequest"
import { RequestScope } from "./requestScope"

type App<R> = HttpApp.Default<unknown, R | HttpServerRequest.HttpServerRequest | Scope.Scope>

const headersOf = (response: HttpServerResponse.HttpServerResponse): Record<string, string | Array<string>> => {
  if (Cookies.isEmpty(response.cookies)) return response.headers
  const setCookie = Cookies.toSetCookieHeaders(response.cookies)
  const own = response.headers["set-cookie"]
  return { ...response.headers, "set-cookie": own === undefined ? setCookie : [...setCookie, own] }
}

/** Writes a stream body chunk by chunk, waiting for `drain` when the socket's buffer is full. */
const writeStream = (res: ServerResponse, body: Stream.Stream<Uint8Array, unknown>) =>
  Effect.suspend(() => {
    let resumeDrain: (() => void) | undefined
    const onDrain = () => resumeDrain?.()
    res.on("drain", onDrain)
    return body.pipe(
      Stream.runForEachChunk((chunk) => {
        let full = false
        for (const bytes of Chunk.toReadonlyArray(chunk)) full = !res.write(bytes)
        if (!full) return Effect.void
        return Effect.async<void>((resume) => {
          resumeDrain = () => {
            resumeDrain = undefined
            resume(Effect.void)
          }
        })
      }),
      Effect.zipRight(Effect.sync(() => void res.end())),
      Effect.ensuring(Effect.sync(() => res.off("drain", onDrain)))
    )
  })

/** Writes an answer held in memory (no body, or bytes) at once, with one `end`; false for any other body. */
export const writeInMemory = (res: ServerResponse, response: HttpServerResponse.HttpServerResponse): boolean => {
  const body = response.body
  if (body._tag !== "Empty" && body._tag !== "Uint8Array") return false
  res.writeHead(response.status, headersOf(response))
  if (body._tag === "Empty") res.end()
  else res.end(body.body)
  return true
}

/**
 * Writes the answer: bytes at once (one `end`, no wait for the write to flush), streams and Node
 * readables as they come (interruptibly: a client that leaves stops them). Runs inside the
 * request's scope, which a streamed body may read from.
 */
const writeResponse = (res: ServerResponse, response: HttpServerResponse.HttpServerResponse) =>
  Effect.suspend((): Effect.Effect<void, unknown> => {
    if (res.writableEnded) return Effect.void
    if (writeInMemory(res, response)) return Effect.void
    const body = response.body
    switch (body._tag) {
      case "Empty":
      case "Uint8Array":
        return Effect.void // written above
      case "Raw":
        res.writeHead(response.status, headersOf(response))
        if (body.body instanceof Readable) {
          const source = body.body
          return Effect.interruptible(Effect.tryPromise((signal) => pipeline(source, res, { signal })))
        }
        res.end(body.body as string | Uint8Array)
        return Effect.void
      case "FormData": {
        const web = new Response(body.formData)
        res.writeHead(response.status, { ...headersOf(response), ...Object.fromEntries(web.headers) })
        return Effect.interruptible(
          Effect.tryPromise((signal) => pipeline(Readable.fromWeb(web.body as never), res, { signal }))
        )
      }
      case "Stream":
        res.writeHead(response.status, headersOf(response))
        return Effect.interruptible(writeStream(res, body.stream))
    }
  })

/**
 * A server span around the app (what `NodeHttpServer`'s tracer middleware opens): a child of the
 * client's `traceparent` when it sent one; the method, path and status as attributes.
 */
const withServerSpan = <R>(app: App<R>): App<R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const query = request.url.indexOf("?")
    return Effect.useSpan(
      `http.server ${request.method}`,
      {
        kind: "server",
        captureStackTrace: false,
        parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
        attributes: {
          "http.request.method": request.method,
          "url.path": query === -1 ? request.url : request.url.slice(0, query)
        }
      },
      (span) =>
        Effect.tap(Effect.withParentSpan(app, span), (response) =>
          span.attribute("http.response.status_code", response.status))
    )
  })

/** The answer after the handlers `HttpApp.appendPreResponseHandler` registered on this fiber. */
const afterPreResponseHandlers = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown>((fiber) => {
    const handler = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
    return handler._tag === "None" ? Effect.succeed(response) : handler.value(request, response)
  })

export interface AppHandlerOptions {
  /** A server span per request (`withServerSpan`), for a runtime whose tracer exports. */
  readonly tracing?: boolean
  /** Told of a failure that left no answer (an error or defect the app did not answer itself): it gets a 500. */
  readonly onFailure?: (cause: Cause.Cause<unknown>) => void
}

/**
 * Serves an `HttpApp` on Node's `http` server, as `NodeHttpServer.makeHandler` does, but more
 * directly: the answer is written from inside the request's fiber and scope without waiting for
 * the write to flush, the request's scope is made only if something uses it (`RequestScope`), and
 * the tracer middleware runs only when tracing is on. Like the platform's handler, the app runs
 * uninterruptible but for its routes, and a client that closes the connection before the answer is
 * written interrupts it.
 */
export const makeAppHandler = <R>(app: App<R>, runtime: Runtime.Runtime<R>, options: AppHandlerOptions = {}) => {
  const served = options.tracing === true ? withServerSpan(app) : app
  const answer = (request: HttpServerRequest.HttpServerRequest, scope: RequestScope, res: ServerResponse) =>
    Effect.uninterruptible(Effect.onExit(
      Effect.flatMap(
        served,
        (response) => Effect.flatMap(afterPreResponseHandlers(request, response), (final) => writeResponse(res, final))
      ),
      (exit) => scope.close(exit)
    ))
  /**
   * `ended` (optional) is called once the request's fiber has ended, after its scope closed;
   * `clientAddress`, the client resolved by the adapter, is the request's `ClientAddress`.
   */
  return (req: IncomingMessage, res: ServerResponse, ended?: () => void, clientAddress?: string): void => {
    const request = new NodeServerRequest(req)
    const scope = new RequestScope()
    // The request and its scope are in the fiber's context from its start, in one copy of the
    // runtime's: no `provideService` (each copies the fiber's refs twice, to set them and to restore them).
    const services = new Map(runtime.context.unsafeMap)
    services.set(HttpServerRequest.HttpServerRequest.key, request)
    services.set(Scope.Scope.key, scope)
    if (clientAddress !== undefined) services.set(ClientAddress.key, clientAddress)
    const context = Context.unsafeMake<R | HttpServerRequest.HttpServerRequest | Scope.Scope>(services)
    const fiber = Runtime.runFork(
      Runtime.make({ context, fiberRefs: runtime.fiberRefs, runtimeFlags: runtime.runtimeFlags })
    )(answer(request, scope, res))
    res.once("close", () => {
      if (!res.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })
    fiber.addObserver((exit) => {
      ended?.()
      if (Exit.isSuccess(exit) || res.writableEnded) return
      if (Cause.isInterruptedOnly(exit.cause)) {
        res.destroy()
        return
      }
      options.onFailure?.(exit.cause)
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.writeHead(500, { "content-type": "application/json" })
      res.end(JSON.stringify({ success: false, code: "internal_error", message: "Internal server error." }))
    })
  }
}
