import { AppError, type ErrorLocation, fieldError, payloadTooLarge } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { same } from "../domain/Text"
import { errorBody } from "./errorBody"

export const MAX_BODY_BYTES = 1024 * 1024

/** A NUL character, raw or as a JSON escape not itself escaped: PostgreSQL text cannot hold it. */
const jsonNul = /(?:^|[^\\])(?:\\\\)*\\u0000/i

const reject = (request: Request, error: AppError) =>
  Response.json(errorBody(error, request.headers.get("accept-language") ?? undefined), { status: error.status })

const nulRejected = (request: Request, location: ErrorLocation) =>
  reject(
    request,
    new AppError({
      status: 400,
      text: Messages.nulCharacter,
      errors: [fieldError(location === "body" ? "body" : "url", same("must not contain NUL characters"), location)]
    })
  )

/** Arrays and objects nested deeper than this are refused before any JSON parser sees them. */
export const MAX_JSON_DEPTH = 64

const tooDeep = (request: Request) =>
  reject(
    request,
    new AppError({
      status: 400,
      text: Messages.jsonTooDeep,
      errors: [
        fieldError("body", same(`must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`), "body")
      ]
    })
  )

/**
 * Whether JSON text nests `[` and `{` deeper than `max`, counting only outside strings. A recursive
 * parser or schema would overflow the stack on 3,000 levels. Works on the UTF-8 bytes: no byte of a
 * multi-byte character is a quote, a backslash or a bracket.
 */
export const nestsDeeperThan = (body: Uint8Array, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]
    if (inString) {
      if (byte === 0x5c) i++ // backslash: skip the escaped character
      else if (byte === 0x22) inString = false
    } else if (byte === 0x22) {
      inString = true
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--
    }
  }
  return false
}

/** Whether a body of this media type may be read as JSON (no type, or any `…json…`, in any case). */
const mayBeJson = (contentType: string | null) => contentType === null || /json/i.test(contentType)

/** Reads at most `limit` bytes of the body; undefined when it is larger. */
const readLimited = async (body: ReadableStream<Uint8Array>, limit: number) => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * What every request passes before the API sees it: a body of at most 1 MB (whatever
 * Content-Length claims, since an embedder's Request need not keep to it), no NUL character in
 * the URL or body, and JSON nested at most `MAX_JSON_DEPTH` levels. Answers the refusal, or the request to handle (its body buffered).
 */
export const admit = async (request: Request): Promise<Request | Response> => {
  if (/%00/.test(request.url)) return nulRejected(request, "query")
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) {
    return reject(request, payloadTooLarge(Messages.bodyTooLarge))
  }
  if (request.body === null) return request
  const body = await readLimited(request.body, MAX_BODY_BYTES)
  if (body === undefined) return reject(request, payloadTooLarge(Messages.bodyTooLarge))
  if (body.includes(0) || jsonNul.test(body.toString("utf8"))) return nulRejected(request, "body")
  if (mayBeJson(request.headers.get("content-type")) && nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    return tooDeep(request)
  }
  return new Request(request, { body, duplex: "half" } as RequestInit)
}
