import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { AppError } from "../domain/AppError"
import { same } from "../domain/Text"

/** The error codes of RFC 6749, 7591 and 8707 that Roda answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "server_error"
  | "temporarily_unavailable"

/**
 * The failure kind of the OAuth endpoints (`/oauth/*`): an RFC 6749 §5.2 answer,
 * `{ error, error_description }`, instead of Roda's envelope. It is an `AppError` like every other
 * kind, so the envelope renders it (`app/errorBody.ts`, with `Cache-Control: no-store`) and the
 * request transaction keeps what was written before it (a replayed code's revocation). `error` and
 * `status` are literals, so an endpoint's declaration (`refusedWith`) is checked by the compiler.
 */
export class OAuthRefusal<Code extends OAuthErrorCode = OAuthErrorCode, Status extends number = number>
  extends AppError
{
  readonly kind = "OAuthRefusal"
  declare readonly status: Status
  constructor(readonly error: Code, description: string, status: Status, retryAfterSeconds?: number) {
    super({
      status,
      text: same(description),
      headers: retryAfterSeconds === undefined ? undefined : { "retry-after": String(retryAfterSeconds) }
    })
  }
}

/** A 400 refusal (RFC 6749 §5.2) with `error` and its description. */
export const refused = <Code extends OAuthErrorCode>(error: Code, description: string) =>
  new OAuthRefusal(error, description, 400 as const)

/** The RFC 6749 code of a failure the framework produced on an OAuth path (a malformed request, a server error). */
export const codeOfStatus = (status: number, path: string): OAuthErrorCode =>
  status === 401
    ? "invalid_client"
    : status === 503
    ? "temporarily_unavailable"
    : status >= 500
    ? "server_error"
    : path === "/oauth/register"
    ? "invalid_client_metadata"
    : "invalid_request"

/**
 * What an OAuth endpoint may refuse with at `status`: one of `codes`. On the wire it is
 * `{ error, error_description }` with `error` one of `codes` (the OpenAPI document lists them); a
 * client decodes such a body back into an `OAuthRefusal`.
 */
export const refusedWith = <
  const Status extends number,
  const Codes extends readonly [OAuthErrorCode, ...Array<OAuthErrorCode>]
>(
  status: Status,
  ...codes: Codes
): Schema.Schema<
  OAuthRefusal<Codes[number], Status>,
  { readonly error: Codes[number]; readonly error_description: string }
> => {
  const accepted = new Set<string>(codes)
  const wire = Schema.Struct({
    error: Schema.Literal(...codes).annotations({ description: "The RFC 6749 §5.2 error code" }),
    error_description: Schema.String.annotations({ description: "What was wrong, for the developer" })
  })
  const instance = Schema.declare((u): u is OAuthRefusal<Codes[number], Status> =>
    u instanceof OAuthRefusal && u.status === status && accepted.has(u.error)
  )
  return Schema.transform(wire, instance, {
    strict: false,
    decode: (body) => new OAuthRefusal(body.error, body.error_description, status),
    encode: (refusal) => ({ error: refusal.error, error_description: refusal.text.en })
  }).annotations(HttpApiSchema.annotations({ status })) as never
}
