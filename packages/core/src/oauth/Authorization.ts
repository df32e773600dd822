import { Clock, Effect, Option, Random } from "effect"
import { Memberships } from "../communities/Memberships"
import { Profiles } from "../communities/Profiles"
import { conflict, forbidden, notFound } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { CommunityId } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { Clients } from "./Clients"
import { OAuthMessages } from "./messages"
import { redirectMatches, withParams } from "./redirects"
import { OAuthRepo, type RequestRow } from "./Repo"
import { parseScopes, requestedScopes, scopeText } from "./scopes"
import { CODE_SECONDS, REQUEST_MINUTES, sha256 } from "./secrets"
import { OAuthUrls } from "./urls"

/** The query of `GET /oauth/authorize`, every parameter as sent. */
export interface AuthorizeParams {
  readonly response_type?: string | undefined
  readonly client_id?: string | undefined
  readonly redirect_uri?: string | undefined
  readonly code_challenge?: string | undefined
  readonly code_challenge_method?: string | undefined
  readonly state?: string | undefined
  readonly scope?: string | undefined
  readonly resource?: string | undefined
}

/** Where `/oauth/authorize` sends the browser: a page of its own (400, never a redirect), or a redirect. */
export type AuthorizeOutcome =
  | { readonly _tag: "Refused"; readonly description: string }
  | { readonly _tag: "Redirect"; readonly location: string }

/** RFC 7636: 43 to 128 unreserved characters (an S256 challenge is 43). */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/** `/oauth/authorize`, the consent screen's data, and the account's answer (consent or deny). */
export class Authorization extends Effect.Service<Authorization>()("@roda/core/OAuthAuthorization", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuthRepo
    const clients = yield* Clients
    const urls = yield* OAuthUrls
    const ids = yield* Ids
    const memberships = yield* Memberships
    const profiles = yield* Profiles

    const authorize = traced("OAuthAuthorization.authorize")(function*(params: AuthorizeParams) {
      const client = yield* clients.resolve(params.client_id)
      if (Option.isNone(client)) {
        return { _tag: "Refused", description: "Unknown client_id." } as AuthorizeOutcome
      }
      const redirectUri = params.redirect_uri
      if (redirectUri === undefined || !redirectMatches(client.value.redirectUris, redirectUri)) {
        return {
          _tag: "Refused",
          description: "The redirect_uri is not one registered for this client."
        } as AuthorizeOutcome
      }
      const fail = (error: string, description: string): AuthorizeOutcome => ({
        _tag: "Redirect",
        location: withParams(redirectUri, {
          error,
          error_description: description,
          state: params.state,
          iss: urls.issuer
        })
      })
      if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code")
      if (params.code_challenge === undefined || params.code_challenge === "") {
        return fail("invalid_request", "code_challenge is required (PKCE with S256)")
      }
      if (params.code_challenge_method !== "S256") {
        return fail("invalid_request", "code_challenge_method must be S256")
      }
      if (!PKCE_VALUE.test(params.code_challenge)) return fail("invalid_request", "code_challenge is malformed")
      const scopes = requestedScopes(params.scope)
      if (scopes === undefined) return fail("invalid_scope", "scope may name only read and write")
      if (params.resource !== undefined && params.resource !== urls.resource) {
        return fail("invalid_target", `resource must be ${urls.resource}`)
      }
      const at = yield* now
      if ((yield* Random.nextIntBetween(0, 100)) === 0) yield* repo.sweep(at)
      const id = yield* ids.next
      yield* repo.insertRequest({
        id,
        clientId: client.value.id,
        redirectUri,
        codeChallenge: params.code_challenge,
        scopes: scopeText(scopes),
        state: params.state?.slice(0, 1000) ?? null,
        resource: urls.resource,
        status: "pending",
        createdAt: at,
        expiresAt: new Date(at.getTime() + REQUEST_MINUTES * 60_000)
      })
      return {
        _tag: "Redirect",
        location: withParams(`${urls.issuer}/oauth/consent`, { request_id: id })
      } as AuthorizeOutcome
    })

    /** A pending, unexpired request: 404 when unknown or expired, 409 when already answered. */
    const pending = (requestId: string) =>
      Effect.gen(function*() {
        const found = yield* repo.request(requestId)
        const at = yield* now
        if (Option.isNone(found) || found.value.expiresAt.getTime() <= at.getTime()) {
          return yield* Effect.fail(notFound(OAuthMessages.requestNotFound))
        }
        if (found.value.status !== "pending") return yield* Effect.fail(conflict(OAuthMessages.requestDecided))
        return found.value
      })

    const info = traced("OAuthAuthorization.info")(function*(account: Account, requestId: string) {
      const request = yield* pending(requestId)
      const client = yield* repo.client(request.clientId)
      const communities = (yield* profiles.my(account))
        .filter((profile) => profile.status === "active")
        .map((profile) => ({ id: profile.community.id, name: profile.community.name, role: profile.role }))
      return {
        requestId: request.id,
        client: {
          id: request.clientId,
          name: Option.match(client, { onNone: () => null, onSome: (c) => c.name }),
          uri: Option.match(client, { onNone: () => null, onSome: (c) => c.uri })
        },
        redirectUri: request.redirectUri,
        scopes: parseScopes(request.scopes),
        resource: request.resource,
        expiresAt: request.expiresAt.toISOString(),
        communities
      }
    })

    const answer = (request: RequestRow, params: Record<string, string>) =>
      withParams(request.redirectUri, { ...params, state: request.state, iss: urls.issuer })

    const consent = traced("OAuthAuthorization.consent")(
      function*(account: Account, requestId: string, communityId: string) {
        const request = yield* pending(requestId)
        const membership = yield* memberships.callerIn(CommunityId.make(communityId), account.id)
        if (Option.isNone(membership) || membership.value.profileId === null) {
          return yield* Effect.fail(forbidden(Messages.notMember))
        }
        const at = yield* now
        if (!(yield* repo.decide(request.id, "consented", account.id, communityId, at))) {
          return yield* Effect.fail(conflict(OAuthMessages.requestDecided))
        }
        const code = yield* ids.secret()
        yield* repo.insertCode({
          codeHash: sha256(code),
          requestId: request.id,
          communityId,
          accountId: account.id,
          clientId: request.clientId,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          scopes: request.scopes,
          resource: request.resource,
          expiresAt: new Date(at.getTime() + CODE_SECONDS * 1000)
        })
        return { redirectTo: answer(request, { code }) }
      }
    )

    const deny = traced("OAuthAuthorization.deny")(function*(account: Account, requestId: string) {
      const request = yield* pending(requestId)
      if (!(yield* repo.decide(request.id, "denied", account.id, null, yield* now))) {
        return yield* Effect.fail(conflict(OAuthMessages.requestDecided))
      }
      return {
        redirectTo: answer(request, { error: "access_denied", error_description: "The account holder denied access" })
      }
    })

    return { authorize, info, consent, deny }
  })
}) {}
