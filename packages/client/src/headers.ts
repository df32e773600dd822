/** Who calls, and in which community: what both clients send on every request. */
export type RodaCredentials =
  /** A login token (`POST /api/auth/login`). */
  | { readonly token: string; readonly apiKey?: undefined }
  /** An API key (`rk_…`), acting in its own community with its scopes. */
  | { readonly apiKey: string; readonly token?: undefined }
  /** No credentials: the public routes and sign-up / sign-in. */
  | { readonly token?: undefined; readonly apiKey?: undefined }

export type RodaClientOptions = RodaCredentials & {
  /** Where Roda is mounted, without `/api` (e.g. `https://example.com` or `http://localhost:3000/roda`). */
  readonly baseUrl: string | URL
  /** `X-CommunityId`: the community of the calls (the auth routes need none). */
  readonly communityId?: string | undefined
  /** `X-ProfileId`: act as this profile of the community (owner, admin and moderator only). */
  readonly profileId?: string | undefined
  /** `Accept-Language` of the answers' messages: `pt` (the default) or `en`. */
  readonly language?: "pt" | "en" | undefined
}

/**
 * The headers of every call. A login token and an API key travel the same way, as
 * `Authorization: Bearer …` (design/platform.md, "API keys").
 */
export const rodaHeaders = (options: RodaClientOptions): Record<string, string> => {
  const headers: Record<string, string> = {}
  const credential = options.token ?? options.apiKey
  if (credential !== undefined) headers["authorization"] = `Bearer ${credential}`
  if (options.communityId !== undefined) headers["x-communityid"] = options.communityId
  if (options.profileId !== undefined) headers["x-profileid"] = options.profileId
  if (options.language !== undefined) headers["accept-language"] = options.language
  return headers
}

/** The base URL without a trailing slash: the contract's paths start with `/api/`. */
export const rodaBaseUrl = (baseUrl: string | URL): string => String(baseUrl).replace(/\/+$/, "")
