import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount, CurrentMember } from "../domain/Caller"
import { clientAddress } from "../http/ClientAddress"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page, requestLanguage } from "../http/Reply"
import { Ids } from "../platform/Ids"
import { Authorization } from "./Authorization"
import { Clients } from "./Clients"
import { Connections } from "./Connections"
import { consentPage, pageHeaders, refusalPage } from "./consentPage"
import { OAuthMessages as M } from "./messages"
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata"
import { TokenEndpoint } from "./TokenEndpoint"
import { OAuthUrls } from "./urls"

/** Token answers are never cached (RFC 6749 §5.1). */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status, headers: NO_STORE })

export const OAuthServerHttp = apiGroup(RodaApi, "oauth", (handlers) =>
  Effect.gen(function*() {
    const urls = yield* OAuthUrls
    const clients = yield* Clients
    const authorization = yield* Authorization
    const tokens = yield* TokenEndpoint
    const ids = yield* Ids
    const resource = protectedResourceMetadata(urls)
    const server = authorizationServerMetadata(urls)
    const html = (body: (nonce: string) => string, status = 200) =>
      Effect.gen(function*() {
        const nonce = yield* ids.secret(16)
        return HttpServerResponse.text(body(nonce), {
          status,
          contentType: "text/html; charset=utf-8",
          headers: pageHeaders(nonce)
        })
      })
    return handlers
      .handle("protectedResource", () => Effect.succeed(resource))
      .handle("protectedResourceMcp", () => Effect.succeed(resource))
      .handle("authorizationServer", () => Effect.succeed(server))
      .handle("register", ({ payload }) =>
        Effect.map(
          Effect.flatMap(clientAddress, (address) => clients.register(payload, address)),
          (answer) => json(answer, 201)
        ))
      .handle("authorize", ({ urlParams }) =>
        Effect.gen(function*() {
          const outcome = yield* authorization.authorize(urlParams)
          if (outcome._tag === "Redirect") {
            return HttpServerResponse.redirect(outcome.location, {
              status: 302,
              headers: { "cache-control": "no-store" }
            })
          }
          const language = yield* requestLanguage
          return yield* html((nonce) => refusalPage(outcome.description, language, nonce), 400)
        }))
      .handle("consentPage", () =>
        Effect.flatMap(requestLanguage, (language) => html((nonce) => consentPage(language, nonce))))
      .handle("token", ({ payload }) =>
        Effect.map(tokens.token(payload), (answer) => json(answer)))
      .handle("revoke", ({ payload }) =>
        Effect.as(tokens.revoke(payload), HttpServerResponse.empty({ status: 200, headers: NO_STORE })))
  }))

export const OAuthConsentHttp = apiGroup(RodaApi, "oauthConsent", (handlers) =>
  Effect.gen(function*() {
    const authorization = yield* Authorization
    return handlers
      .handle("info", ({ urlParams }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => authorization.info(account, urlParams.request_id)),
          Effect.flatMap((data) => ok(M.requestFound, data))
        ))
      .handle("consent", ({ payload }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => authorization.consent(account, payload.requestId, payload.communityId)),
          Effect.flatMap((data) => ok(M.consented, data))
        ))
      .handle("deny", ({ payload }) =>
        CurrentAccount.pipe(
          Effect.flatMap((account) => authorization.deny(account, payload.requestId)),
          Effect.flatMap((data) => ok(M.denied, data))
        ))
  }))

export const OAuthConnectionsHttp = apiGroup(
  RodaApi,
  "oauthConnections",
  (handlers) =>
    Effect.gen(function*() {
      const connections = yield* Connections
      return handlers
        .handle("list", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => connections.list(member, urlParams)),
            Effect.flatMap((result) => page(M.connections, result))
          ))
        .handle("disconnect", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => connections.disconnect(member, path.id)),
            Effect.zipRight(ok(M.disconnected, null))
          ))
        .handle("diagnostics", ({ path }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => connections.diagnostics(member, path.id)),
            Effect.flatMap((data) => ok(M.diagnostics, data))
          ))
        .handle("audit", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => connections.audit(member, urlParams)),
            Effect.flatMap((result) => page(M.audit, result))
          ))
    })
)

/** Only reached where `@roda/mcp` is not mounted in front of Roda. */
export const McpEndpointHttp = apiGroup(
  RodaApi,
  "mcp",
  (handlers) =>
    Effect.succeed(handlers.handle("mcp", () =>
      Effect.succeed(
        HttpServerResponse.unsafeJson({
          error: "not_found",
          error_description: "The MCP server is not mounted here: serve @roda/mcp at /mcp (the Node server does)"
        }, { status: 404 })
      )))
)
