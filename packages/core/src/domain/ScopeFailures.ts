import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound, RateLimited, Unauthenticated } from "./AppError"
import { declared } from "./Failure"

/**
 * What the request's scopes (`http/Security.ts`) can refuse, as the contract declares it: each
 * operation behind a scope lists these codes beside its own.
 */
export const TokenRefused = declared(Unauthenticated, "token_required", "token_invalid")
/** A token that is present but names no live session (public routes take no token as anonymous). */
export const TokenInvalid = declared(Unauthenticated, "token_invalid")
export const HeadersRefused = declared(
  InvalidInput,
  "community_header_missing",
  "community_mismatch",
  "invalid_input"
)
export const ActingProfileRefused = declared(Forbidden, "acting_profile_forbidden")
export const MembershipRefused = declared(Forbidden, "not_member", "acting_profile_forbidden")
export const ActingProfileUnknown = declared(NotFound, "acting_profile_not_found")

/**
 * What an API key (`Bearer rk_…`) can be refused for beyond a token's refusals: a route keys may not
 * use, a scope it lacks, another community's header; past its rate limit, 429.
 */
export const ApiKeyRefused = declared(
  Forbidden,
  "api_key_route_refused",
  "api_key_scope_missing",
  "api_key_other_community"
)
export const ApiKeyLimited = declared(RateLimited, "rate_limited")

/** Routes of no community (the account's own) take no API key. */
export const ApiKeyNotHere = declared(Forbidden, "api_key_route_refused")

export const AuthenticatedFailure = Schema.Union(TokenRefused, ApiKeyNotHere)
export type AuthenticatedFailure = typeof AuthenticatedFailure.Type

export const MemberScopeFailure = Schema.Union(
  TokenRefused,
  HeadersRefused,
  MembershipRefused,
  ActingProfileUnknown,
  ApiKeyRefused,
  ApiKeyLimited
)
export type MemberScopeFailure = typeof MemberScopeFailure.Type

export const PublicScopeFailure = Schema.Union(
  TokenInvalid,
  HeadersRefused,
  ActingProfileRefused,
  ActingProfileUnknown,
  ApiKeyRefused,
  ApiKeyLimited
)
export type PublicScopeFailure = typeof PublicScopeFailure.Type
