import {
  Cookies,
  type FileSystem,
  type Headers,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  type Multipart,
  type Path,
  UrlParams
} from "@effect/platform"
import { NodeMultipart, NodeStream } from "@effect/platform-node"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Context, Effect, Exit, Inspectable, Option, type Scope, type Stream } from "effect"
import type { IncomingMessage } from "node:http"

/**
 * An `HttpServerRequest` over Node's `IncomingMessage`, read lazily, as `@effect/platform-node`'s
 * own (which its package keeps internal): the body is read once and kept (`text`, `json`), at most
 * `HttpIncomingMessage.MaxBodySize`; multipart parts are persisted in the request's scope.
 */
export class NodeServerRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(
    readonly source: IncomingMessage,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string
  ) {
    super()
  }

  private readonly decodeError = (cause: unknown) =>
    new HttpServerError.RequestError({ request: this, reason: "Decode", cause })

  get originalUrl(): string {
    return this.source.url ?? "/"
  }

  /** Node's parser knows methods only in capitals (it refuses `get`): no `toUpperCase` per read. */
  get method(): HttpMethod {
    return (this.source.method ?? "GET") as HttpMethod
  }

  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as Headers.Headers)
  }

  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket.remoteAddress)
  }

  private cachedCookies: Record<string, string> | undefined
  get cookies(): Record<string, string> {
    return this.cachedCookies ??= Cookies.parseHeader(this.headers.cookie ?? "")
  }

  /** The body as text, read from the socket once (shared with the copies `modify` makes). */
  private body: BodyText = new BodyText()

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return this.body.read(this.source, this.decodeError)
  }

  /** The body parsed as JSON once (an empty body is `null`); its readers must not change it. */
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return this.body.json(this.source, this.decodeError)
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.flatMap(
      this.text,
      (text) => Effect.try({ try: () => UrlParams.fromInput(new URLSearchParams(text)), catch: this.decodeError })
    )
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return NodeStream.fromReadable(() => this.source, this.decodeError)
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.flatMap(HttpIncomingMessage.MaxBodySize, (maxBodySize) =>
      Effect.map(
        NodeStream.toUint8Array(() => this.source, {
          onFailure: this.decodeError,
          maxBytes: Option.getOrUndefined(maxBodySize)
        }),
        (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
      ))
  }

  private multipartEffect:
    | Effect.Effect<Multipart.Persisted, Multipart.MultipartError, Scope.Scope | FileSystem.FileSystem | Path.Path>
    | undefined
  get multipart(): Effect.Effect<
    Multipart.Persisted,
    Multipart.MultipartError,
    Scope.Scope | FileSystem.FileSystem | Path.Path
  > {
    return this.multipartEffect ??= Effect.runSync(
      Effect.cached(NodeMultipart.persisted(this.source, this.source.headers))
    )
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return NodeMultipart.stream(this.source, this.source.headers)
  }

  get upgrade(): Effect.Effect<never, HttpServerError.RequestError> {
    return Effect.fail(
      new HttpServerError.RequestError({ request: this, reason: "Decode", description: "not an upgradeable request" })
    )
  }

  modify(options: {
    readonly url?: string | undefined
    readonly headers?: Headers.Headers | undefined
    readonly remoteAddress?: string | undefined
  }): HttpServerRequest.HttpServerRequest {
    const modified = new NodeServerRequest(
      this.source,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride
    )
    // The body can be read from the socket only once: the copy shares what this one read.
    modified.body = this.body
    return modified
  }

  override toString(): string {
    return `ServerRequest(${this.method} ${this.url})`
  }

  override toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpServerRequest",
      method: this.method,
      url: this.originalUrl
    })
  }
}

type TextExit = Exit.Exit<string, HttpServerError.RequestError>

/**
 * A request body read once as UTF-8 text, at most `HttpIncomingMessage.MaxBodySize` bytes (the limit
 * of the fiber that reads first), as `NodeStream.toString` reads it; the text and the parsed JSON are
 * kept. Plain listeners and a list of waiters: `Effect.cached` and a scoped stream cost a POST about
 * sixty interpreter steps.
 */
class BodyText {
  private exit: TextExit | undefined
  private waiters: Array<(exit: TextExit) => void> | undefined
  private parsed: Exit.Exit<unknown, HttpServerError.RequestError> | undefined

  read(
    source: IncomingMessage,
    decodeError: (cause: unknown) => HttpServerError.RequestError
  ): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.withFiberRuntime((fiber) => {
      if (this.exit !== undefined) return this.exit
      if (this.waiters === undefined) {
        this.waiters = []
        const max = Option.getOrUndefined(Context.get(fiber.currentContext, HttpIncomingMessage.MaxBodySize))
        this.start(source, max === undefined ? undefined : Number(max), decodeError)
        if (this.exit !== undefined) return this.exit
      }
      return Effect.async<string, HttpServerError.RequestError>((resume) => {
        const waiter = (exit: TextExit) => resume(exit)
        this.waiters!.push(waiter)
        return Effect.sync(() => {
          this.waiters = this.waiters?.filter((other) => other !== waiter)
        })
      })
    })
  }

  json(
    source: IncomingMessage,
    decodeError: (cause: unknown) => HttpServerError.RequestError
  ): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.read(source, decodeError), (text) => {
      if (this.parsed === undefined) {
        try {
          this.parsed = Exit.succeed(text === "" ? null : JSON.parse(text) as unknown)
        } catch (cause) {
          this.parsed = Exit.fail(decodeError(cause))
        }
      }
      return this.parsed
    })
  }

  private start(
    source: IncomingMessage,
    max: number | undefined,
    decodeError: (cause: unknown) => HttpServerError.RequestError
  ) {
    let text = ""
    let bytes = 0
    const settle = (exit: TextExit) => {
      if (this.exit !== undefined) return
      this.exit = exit
      source.off("data", onData)
      const waiters = this.waiters ?? []
      this.waiters = undefined
      for (const waiter of waiters) waiter(exit)
    }
    const onData = (chunk: string) => {
      text += chunk
      bytes += Buffer.byteLength(chunk)
      if (max !== undefined && bytes > max) {
        settle(Exit.fail(decodeError(new Error("maxBytes exceeded"))))
        // The rest is left unread, the socket open for the answer (the platform's reader destroys
        // it); the server reads and discards what is left once it has answered.
        source.pause()
      }
    }
    source.setEncoding("utf8")
    source.once("error", (error) => settle(Exit.fail(decodeError(error))))
    source.once("end", () => settle(Exit.succeed(text)))
    source.on("data", onData)
  }
}
