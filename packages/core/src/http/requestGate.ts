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
 * Content-Length claims, since an embedder's Request need not keep to it), and no NUL character in
 * the URL or body. Answers the refusal, or the request to handle (its body buffered).
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
  return new Request(request, { body, duplex: "half" } as RequestInit)
}
