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

/** An OAuth error answer: `{ error, error_description }` (not Roda's envelope), 400 unless said. */
export interface OAuthFailure {
  readonly error: OAuthErrorCode
  readonly error_description: string
  readonly status: number
  /** Seconds to wait before trying again, sent as `Retry-After`. */
  readonly retryAfter?: number | undefined
}

export const oauthFailure = (error: OAuthErrorCode, description: string, status = 400): OAuthFailure => ({
  error,
  error_description: description,
  status
})

export const isFailure = (value: unknown): value is OAuthFailure =>
  typeof value === "object" && value !== null && "error" in value && "status" in value

/** The body of an OAuth error answer. */
export const failureBody = (failure: OAuthFailure) => ({
  error: failure.error,
  error_description: failure.error_description
})

/** The OAuth error code of a failure the framework produced (a malformed request, a server error). */
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
