import { Clock, Effect, Option } from "effect"
import { constantTimeEqual, sha256Bytes, toBase64Url, utf8Bytes } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { Clients } from "./Clients"
import { OAuthRefusal, refused } from "./ErrorsApi"
import { isVoided, OAuthRepo } from "./Repo"
import { parseScopes, requestedScopes, scopeText } from "./scopes"
import { ACCESS_PREFIX, ACCESS_TOKEN_SECONDS, REFRESH_PREFIX, REFRESH_TOKEN_DAYS, sha256 } from "./secrets"
import { OAuthUrls } from "./urls"

/** The form of `POST /oauth/token`, every parameter as sent. */
export interface TokenForm {
  readonly grant_type?: string | undefined
  readonly code?: string | undefined
  readonly code_verifier?: string | undefined
  readonly redirect_uri?: string | undefined
  readonly client_id?: string | undefined
  readonly resource?: string | undefined
  readonly refresh_token?: string | undefined
  readonly scope?: string | undefined
}

export interface RevokeForm {
  readonly token?: string | undefined
  readonly token_type_hint?: string | undefined
  readonly client_id?: string | undefined
}

export interface TokenAnswer {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

/** PKCE S256: BASE64URL(SHA256(verifier)) equals the challenge (compared in constant time). */
const verifierMatches = (verifier: string, challenge: string) => {
  return constantTimeEqual(utf8Bytes(toBase64Url(sha256Bytes(verifier))), utf8Bytes(challenge))
}

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const invalidGrant = (description: string) => Effect.fail(refused("invalid_grant", description))

/** `POST /oauth/token` (authorization code and refresh token grants) and `POST /oauth/revoke`. */
export class TokenEndpoint extends Effect.Service<TokenEndpoint>()("@roda/core/OAuthTokenEndpoint", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuthRepo
    const clients = yield* Clients
    const urls = yield* OAuthUrls
    const ids = yield* Ids

    /** A new access and refresh token pair for the connection. */
    const issue = (connection: { id: string; communityId: string }, accessScopes: string, refreshScopes: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const access = ACCESS_PREFIX + (yield* ids.secret())
        const refresh = REFRESH_PREFIX + (yield* ids.secret())
        const base = { connectionId: connection.id, communityId: connection.communityId, audience: urls.resource }
        yield* repo.insertToken({
          ...base,
          tokenHash: sha256(access),
          kind: "access",
          scopes: accessScopes,
          createdAt: at,
          expiresAt: new Date(at.getTime() + ACCESS_TOKEN_SECONDS * 1000)
        })
        yield* repo.insertToken({
          ...base,
          tokenHash: sha256(refresh),
          kind: "refresh",
          scopes: refreshScopes,
          createdAt: at,
          expiresAt: new Date(at.getTime() + REFRESH_TOKEN_DAYS * 24 * 60 * 60 * 1000)
        })
        return {
          access_token: access,
          token_type: "Bearer",
          expires_in: ACCESS_TOKEN_SECONDS,
          refresh_token: refresh,
          scope: accessScopes
        } satisfies TokenAnswer
      })

    const checkTarget = (resource: string | undefined) =>
      resource !== undefined && resource !== urls.resource
        ? Effect.fail(refused("invalid_target", `resource must be ${urls.resource}`))
        : Effect.void

    const exchangeCode = (form: TokenForm) =>
      Effect.gen(function*() {
        for (const field of ["code", "code_verifier", "redirect_uri", "client_id"] as const) {
          if (!form[field]) return yield* Effect.fail(refused("invalid_request", `${field} is required`))
        }
        const client = yield* clients.known(form.client_id)
        if (Option.isNone(client)) {
          return yield* Effect.fail(new OAuthRefusal("invalid_client", "Unknown client_id", 401 as const))
        }
        yield* checkTarget(form.resource)
        const at = yield* now
        // Single use: a conditional UPDATE marks the code, so of concurrent exchanges one wins.
        const used = yield* repo.useCode(sha256(form.code!), at)
        if (used._tag === "Unknown") return yield* invalidGrant("Unknown authorization code")
        if (used._tag === "Replayed" && isVoided(used.code)) {
          return yield* invalidGrant("The authorization code was voided: the account's sessions were ended")
        }
        if (used._tag === "Replayed") {
          // RFC 6749 §4.1.2: a code used twice revokes what the first use issued.
          if (used.code.connectionId !== null) {
            yield* repo.revoke(used.code.connectionId, "authorization code replayed", at)
          }
          return yield* invalidGrant("The authorization code was already used")
        }
        const code = used.code
        if (code.expiresAt.getTime() <= at.getTime()) {
          return yield* invalidGrant("The authorization code has expired")
        }
        if (code.clientId !== client.value.id) return yield* invalidGrant("The code was issued to another client")
        if (code.redirectUri !== form.redirect_uri) {
          return yield* invalidGrant("redirect_uri differs from the authorized one")
        }
        if (!VERIFIER.test(form.code_verifier!) || !verifierMatches(form.code_verifier!, code.codeChallenge)) {
          return yield* invalidGrant("code_verifier does not match the code_challenge")
        }
        const connection = { id: yield* ids.next, communityId: code.communityId }
        yield* repo.insertConnection({
          id: connection.id,
          communityId: code.communityId,
          accountId: code.accountId,
          clientId: code.clientId,
          scopes: code.scopes,
          createdAt: at
        })
        yield* repo.setCodeConnection(code.codeHash, connection.id)
        return yield* issue(connection, code.scopes, code.scopes)
      })

    const refresh = (form: TokenForm) =>
      Effect.gen(function*() {
        if (!form.refresh_token) return yield* Effect.fail(refused("invalid_request", "refresh_token is required"))
        yield* checkTarget(form.resource)
        const hash = sha256(form.refresh_token)
        const found = yield* repo.token(hash)
        if (Option.isNone(found) || found.value.kind !== "refresh") return yield* invalidGrant("Unknown refresh token")
        const token = found.value
        if (form.client_id !== undefined && form.client_id !== token.clientId) {
          return yield* invalidGrant("The refresh token was issued to another client")
        }
        const at = yield* now
        if (token.audience !== urls.resource) {
          return yield* Effect.fail(refused("invalid_target", "The refresh token was issued for another resource"))
        }
        if (token.revokedAt !== null) return yield* invalidGrant("The connection was revoked")
        if (token.expiresAt.getTime() <= at.getTime()) return yield* invalidGrant("The refresh token has expired")
        const granted = parseScopes(token.scopes)
        const asked = form.scope === undefined ? granted : requestedScopes(form.scope)
        if (asked === undefined || !asked.every((scope) => granted.includes(scope))) {
          return yield* Effect.fail(refused("invalid_scope", "scope may only narrow the scopes granted"))
        }
        // Rotation: a conditional UPDATE, so of concurrent refreshes one wins; a token presented
        // again (or by the loser of that race) is a reuse and ends the whole connection.
        if (token.rotatedAt !== null || !(yield* repo.rotate(hash, at))) {
          yield* repo.revoke(token.connectionId, "refresh token reused", at)
          return yield* invalidGrant("The refresh token was already used; the connection is revoked")
        }
        return yield* issue({ id: token.connectionId, communityId: token.communityId }, scopeText(asked), token.scopes)
      })

    const token = traced("OAuthTokenEndpoint.token")(function*(form: TokenForm) {
      if (form.grant_type === undefined || form.grant_type === "") {
        return yield* Effect.fail(refused("invalid_request", "grant_type is required"))
      }
      if (form.grant_type === "authorization_code") return yield* exchangeCode(form)
      if (form.grant_type === "refresh_token") return yield* refresh(form)
      return yield* Effect.fail(
        refused("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
      )
    })

    /** RFC 7009: revoking either token of a connection ends the connection. Unknown tokens are fine. */
    const revoke = traced("OAuthTokenEndpoint.revoke")(function*(form: RevokeForm) {
      if (!form.token) return yield* Effect.fail(refused("invalid_request", "token is required"))
      const found = yield* repo.token(sha256(form.token))
      if (Option.isNone(found)) return
      // A token of another client is not revoked (RFC 7009 §2.1), and the answer does not say so.
      if (form.client_id !== undefined && form.client_id !== found.value.clientId) return
      yield* repo.revoke(found.value.connectionId, "revoked by the client", yield* now)
    })

    return { token, revoke }
  })
}) {}
