import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, NotFound } from "../domain/AppError"
import { Ok } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { Role } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated } from "../http/Security"
import { Scope } from "./Api"

const Community = Schema.Struct({ id: Schema.String, name: Schema.String, role: Role })

const RequestInfo = Schema.Struct({
  requestId: Schema.String,
  client: Schema.Struct({ id: Schema.String, name: Schema.NullOr(Schema.String), uri: Schema.NullOr(Schema.String) }),
  redirectUri: Schema.String,
  scopes: Schema.Array(Scope),
  resource: Schema.String,
  expiresAt: Schema.String,
  communities: Schema.Array(Community)
})

const Redirect = Schema.Struct({ redirectTo: Schema.String })

export const ConsentBody = Body({ requestId: Uuid, communityId: Uuid })
export const DenyBody = Body({ requestId: Uuid })

const DECIDED =
  "A request is answered once: consenting or denying it again answers 409; an unknown or expired one (10 minutes) 404."

/** What the consent page asks of the API (Bearer token of `POST /api/auth/login`, no X-CommunityId). */
export class OAuthConsentApi extends HttpApiGroup.make("oauthConsent")
  .annotateContext(OpenApi.annotations({ title: "OAuth 2.1 and MCP" }))
  .add(
    HttpApiEndpoint.get("info", "/oauth/authorize/info")
      .setUrlParams(Schema.Struct({ request_id: Uuid }))
      .addSuccess(Ok(RequestInfo))
      .addError(declared(NotFound, "request_not_found"))
      .addError(declared(Conflict, "request_decided"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Consent screen data")
      .annotate(
        OpenApi.Description,
        `The authorization request \`request_id\` (from \`/oauth/consent?request_id=…\`): the client (id, name, URI), \`redirectUri\`, \`scopes\`, \`resource\`, \`expiresAt\`, and the communities the account is an active member of, with its role in each. ${DECIDED}`
      )
  )
  .add(
    HttpApiEndpoint.post("consent", "/oauth/authorize/consent")
      .setPayload(ConsentBody)
      .addSuccess(Ok(Redirect))
      .addError(declared(Forbidden, "not_member"))
      .addError(declared(NotFound, "request_not_found"))
      .addError(declared(Conflict, "request_decided"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Allow: bind the assistant to a community")
      .annotate(
        OpenApi.Description,
        `Allows the request for \`communityId\`, a community the account belongs to (else 403 \`Você não é membro desta comunidade.\`). The connection is bound to the account and that community: the assistant acts as the account's own profile there, with its role. \`data.redirectTo\` is \`redirect_uri?code=…&state=…&iss=…\` (the code is single use and valid 60 seconds). ${DECIDED}`
      )
  )
  .add(
    HttpApiEndpoint.post("deny", "/oauth/authorize/deny")
      .setPayload(DenyBody)
      .addSuccess(Ok(Redirect))
      .addError(declared(NotFound, "request_not_found"))
      .addError(declared(Conflict, "request_decided"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Deny the request")
      .annotate(
        OpenApi.Description,
        `\`data.redirectTo\` is \`redirect_uri?error=access_denied&error_description=…&state=…&iss=…\`. ${DECIDED}`
      )
  )
  .middleware(Authenticated)
  .prefix("/api")
{}
