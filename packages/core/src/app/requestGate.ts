import {
  type FileSystem,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Context, Effect, Option } from "effect"
import { AppError, fieldError, payloadTooLarge, unsupportedMediaType } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { same } from "../domain/Text"
import { readAtMost, utf8Text } from "../platform/bytes"
import { errorBody } from "./errorBody"

export const MAX_BODY_BYTES = 1024 * 1024

/** Arrays and objects nested deeper than this are refused before any JSON parser sees them. */
export const MAX_JSON_DEPTH = 64

/** A NUL character as a JSON escape not itself escaped: PostgreSQL text cannot hold it. */
const jsonNul = /(?:^|[^\\])(?:\\\\)*\\u0000/i

const nulIn = (location: "body" | "query") =>
  new AppError({
    status: 400,
    text: Messages.nulCharacter,
    errors: [fieldError(location === "body" ? "body" : "url", same("must not contain NUL characters"), location)]
  })

const loneSurrogate = new AppError({
  status: 400,
  text: Messages.loneSurrogate,
  errors: [fieldError("body", same("must not contain unpaired UTF-16 surrogate escapes (\\uD800 to \\uDFFF)"), "body")]
})

const tooDeep = new AppError({
  status: 400,
  text: Messages.jsonTooDeep,
  errors: [
    fieldError("body", same(`must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`), "body")
  ]
})

const tooLarge = () => payloadTooLarge(Messages.bodyTooLarge)

/**
 * No route takes multipart: the API would hand such a body to the platform's multipart parser, which
 * fails as a defect (a 500) instead of a decoding error. Refused before anything reads it.
 */
const multipart = unsupportedMediaType(Messages.multipartBody, [
  fieldError("Content-Type", same("must be application/json (or the form type the route names)"), "headers")
])

const isMultipart = (contentType: string | null | undefined) =>
  contentType != null && /^\s*multipart\//i.test(contentType)

/**
 * Whether JSON text nests `[` and `{` deeper than `max`, counting only outside strings. A recursive
 * parser or schema would overflow the stack on 3,000 levels. Works on UTF-8 bytes or on the text:
 * no byte of a multi-byte character is a quote, a backslash or a bracket.
 */
export const nestsDeeperThan = (body: Uint8Array | string, max: number): boolean => {
  let depth = 0
  let inString = false
  const isText = typeof body === "string"
  for (let i = 0; i < body.length; i++) {
    const code = isText ? body.charCodeAt(i) : body[i]
    if (inString) {
      if (code === 0x5c) i++ // backslash: skip the escaped character
      else if (code === 0x22) inString = false
    } else if (code === 0x22) {
      inString = true
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true
    } else if (code === 0x5d || code === 0x7d) {
      depth--
    }
  }
  return false
}

const surrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/
const lowSurrogateEscape = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/

/**
 * Whether JSON text escapes a UTF-16 surrogate (`\uD800`–`\uDFFF`) outside a high-low pair.
 * `JSON.parse` keeps such a string, but it is not Unicode text: PostgreSQL's `jsonb` refuses it
 * (and a `text` column would get U+FFFD instead).
 */
export const hasLoneSurrogateEscape = (text: string): boolean => {
  if (!surrogateEscape.test(text)) return false
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 0x5c) continue
    if (text[i + 1] !== "u") {
      i++ // another escape: skip the escaped character
      continue
    }
    const unit = Number.parseInt(text.slice(i + 2, i + 6), 16)
    i += 5
    if (unit >= 0xdc00 && unit <= 0xdfff) return true
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (!lowSurrogateEscape.test(text.slice(i + 1, i + 7))) return true
      i += 6
    }
  }
  return false
}

/** Whether a body of this media type may be read as JSON (no type, or any `…json…`, in any case). */
const mayBeJson = (contentType: string | null | undefined) => contentType == null || /json/i.test(contentType)

/** Bodies the gate does not read as text (uploads); their own parsers limit them. */
const isBinary = (contentType: string | null | undefined) =>
  contentType != null && /^\s*(multipart\/|application\/octet-stream|image\/)/i.test(contentType)

const refuseUrl = (url: string) => url.includes("%00") ? nulIn("query") : undefined

const refuseDeclaredLength = (contentLength: string | null | undefined) =>
  Number(contentLength ?? "0") > MAX_BODY_BYTES ? tooLarge() : undefined

/** What the request line and headers alone refuse (a GET or HEAD body is never read). */
const refuseHead = (
  method: string,
  url: string,
  contentLength: string | null | undefined,
  contentType: string | null | undefined
) =>
  refuseUrl(url) ?? refuseDeclaredLength(contentLength) ??
    (method !== "GET" && method !== "HEAD" && isMultipart(contentType) ? multipart : undefined)

const refuseBody = (text: string, contentType: string | null | undefined) => {
  if (text.includes("\u0000") || jsonNul.test(text)) return nulIn("body")
  if (mayBeJson(contentType) && nestsDeeperThan(text, MAX_JSON_DEPTH)) return tooDeep
  if (mayBeJson(contentType) && hasLoneSurrogateEscape(text)) return loneSurrogate
  return undefined
}

// ---------------------------------------------------------------------------------------------
// The web-standard path (embedders' `Request`)

const reject = (request: Request, error: AppError) =>
  Response.json(errorBody(error, request.headers.get("accept-language") ?? undefined), { status: error.status })

/**
 * What every request passes before the API sees it: a body of at most 1 MB (whatever
 * Content-Length claims, since an embedder's Request need not keep to it), no NUL character in
 * the URL or body, and JSON nested at most `MAX_JSON_DEPTH` levels with no unpaired surrogate
 * escape. Answers the refusal, or the request to handle (its body buffered). Tagged, not told apart
 * with `instanceof Response`: a host may replace the global `Response` (`@hono/node-server` does),
 * and `Response.json` then makes objects that are not instances of it.
 */
export const admit = async (
  request: Request
): Promise<{ readonly refused: Response } | { readonly refused?: undefined; readonly request: Request }> => {
  const early = refuseHead(
    request.method,
    request.url,
    request.headers.get("content-length"),
    request.headers.get("content-type")
  )
  if (early) return { refused: reject(request, early) }
  if (request.body === null) return { request }
  const body = await readAtMost(request.body, MAX_BODY_BYTES)
  if (body === undefined) return { refused: reject(request, tooLarge()) }
  const contentType = request.headers.get("content-type")
  if (body.includes(0)) return { refused: reject(request, nulIn("body")) }
  const refused = isBinary(contentType) ? undefined : refuseBody(utf8Text(body), contentType)
  if (refused) return { refused: reject(request, refused) }
  return { request: new Request(request, { body, duplex: "half" } as RequestInit) }
}

// ---------------------------------------------------------------------------------------------
// The direct path (an adapter serving the HttpApp, e.g. Node's `http` server)

const answer = (request: HttpServerRequest.HttpServerRequest, error: AppError) =>
  Effect.succeed(HttpServerResponse.unsafeJson(errorBody(error, request.headers["accept-language"]), {
    status: error.status
  }))

/**
 * An empty body is not JSON: Node's request would parse it as `null` where the web one refuses it
 * as invalid JSON; both answer alike this way (routes without a payload never read it).
 */
const emptyJson = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    json: {
      get: () => Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause: "empty body" }))
    }
  })

/** Whether the fiber already reads bodies within the limit (an adapter's runtime may set it once for all). */
const limitedAlready = (limit: Option.Option<FileSystem.Size>) =>
  Option.isSome(limit) && limit.value <= BigInt(MAX_BODY_BYTES)

/** The body's text, at most `MAX_BODY_BYTES` (`withMaxBodySize` only where the runtime has no such limit). */
const readLimited = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.withFiberRuntime<string, HttpServerError.RequestError>((fiber) =>
    limitedAlready(Context.get(fiber.currentContext, HttpIncomingMessage.MaxBodySize))
      ? request.text
      : HttpIncomingMessage.withMaxBodySize(request.text, Option.some(MAX_BODY_BYTES))
  )

/**
 * The same gate as `admit`, as a middleware of the HttpApp: the body is read once (at most 1 MB)
 * and kept by the request, so the API decodes that same text.
 */
export const gate = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const method = request.method
    const contentType = request.headers["content-type"]
    const early = refuseHead(method, request.url, request.headers["content-length"], contentType)
    if (early) return answer(request, early)
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || isBinary(contentType)) return app
    return readLimited(request).pipe(
      Effect.matchEffect({
        // A body that could not be read: too large, or broken (the API answers that as bad JSON).
        onFailure: (error) =>
          String((error as { cause?: unknown }).cause).includes("maxBytes") ? answer(request, tooLarge()) : app,
        onSuccess: (text) => {
          const refused = refuseBody(text, contentType)
          if (refused) return answer(request, refused)
          return text === "" ? Effect.provideService(app, HttpServerRequest.HttpServerRequest, emptyJson(request)) : app
        }
      })
    )
  })
