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
import { Effect, Inspectable, Option, type Scope, type Stream } from "effect"
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

  get method(): HttpMethod {
    return (this.source.method ?? "GET").toUpperCase() as HttpMethod
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

  private textEffect: Effect.Effect<string, HttpServerError.RequestError> | undefined
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return this.textEffect ??= Effect.runSync(Effect.cached(
      Effect.flatMap(HttpIncomingMessage.MaxBodySize, (maxBodySize) =>
        NodeStream.toString(() => this.source, {
          onFailure: this.decodeError,
          maxBytes: Option.getOrUndefined(maxBodySize)
        }))
    ))
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.tryMap(this.text, {
      try: (text) => text === "" ? null : JSON.parse(text) as unknown,
      catch: this.decodeError
    })
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
    modified.textEffect = this.textEffect
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
