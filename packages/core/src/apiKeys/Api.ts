import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Instant, Name } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { API_KEY_SCOPES } from "./scopes"

const Scope = Schema.Literal(...API_KEY_SCOPES).annotations({
  message: () => `must be one of ${API_KEY_SCOPES.join(", ")}`
})

const ApiKey = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String.annotations({ description: "The key's first 8 characters (`rk_…`), to recognise it" }),
  scopes: Schema.Array(Scope),
  createdBy: Schema.String.annotations({ description: "The account that made the key: the key acts as it" }),
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
})

const NewKey = Body({
  name: Name(100),
  scopes: Schema.Array(Scope).pipe(
    Schema.minItems(1, { message: () => "must hold at least one scope" }),
    Schema.maxItems(API_KEY_SCOPES.length, { message: () => "must not repeat a scope" })
  ),
  expiresAt: Schema.optional(Instant)
})

const CreatedKey = Schema.extend(
  ApiKey,
  Schema.Struct({ key: Schema.String.annotations({ description: "The key itself, shown this once" }) })
)

const ID = Schema.Struct({ id: Uuid })
const MANAGERS = "Owner or admin (403 `Função necessária: owner ou admin. Sua função: …` otherwise)."
const ACTS =
  "A key acts in its community as the account that made it, with that account's role at the time of each request (a demoted creator's keys lose the same rights; one who left makes them answer 403), narrowed by its scopes: each operation needs one (`community`, `content`, `learning`, `commerce`: `:read` for GET, `:write` for the rest; money routes and the money reports need `money:read` and are read-only; webhooks need `webhooks:manage`). Sign-in and account routes, OAuth, MCP connections, API keys and the operator's routes take no key (403 `api_key_route_refused`). Send it as `Authorization: Bearer rk_…`, with `X-CommunityId` of the key's community (another answers 403 `api_key_other_community`); a missing scope answers 403 `api_key_scope_missing` naming it. Each key may make 6,000 requests a minute (`apiKey` in `RATE_LIMITS`; 429 with `Retry-After` past it). A revoked or expired key answers 401 `Invalid or expired token` on its next request, on every process."

/** API keys of the community (Bearer + X-CommunityId; keys themselves may not call these). */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .annotateContext(OpenApi.annotations({
    title: "API keys",
    description:
      "Keys for integrations, scripts and a local assistant (`RODA_API_KEY` of the MCP stdio server): made by owners and admins, each acting in one community as its creator, within its scopes, until revoked or expired."
  }))
  .add(
    HttpApiEndpoint.post("create", "/api-keys")
      .setPayload(NewKey)
      .addSuccess(Ok(CreatedKey), { status: 201 })
      .addError(declared(InvalidInput, "expires_at_past"))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Create an API key")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Answers the key once as \`data.key\` (\`rk_\` and 43 characters); only its SHA-256 is kept. \`scopes\`: one or more of ${
          API_KEY_SCOPES.map((s) => `\`${s}\``).join(", ")
        }; \`expiresAt\` (optional, in the future): after it the key answers 401. ${ACTS}`
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/api-keys")
      .setUrlParams(PageQuery)
      .addSuccess(Page(ApiKey))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "API keys")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} The community's keys, revoked ones included, newest first (keyset: \`limit\`, \`cursor\`); never the key itself. \`lastUsedAt\` is kept to the minute.`
      )
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api-keys/:id")
      .setPath(ID)
      .addSuccess(Ok(ApiKey))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "api_key_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Revoke an API key")
      .annotate(
        OpenApi.Description,
        `${MANAGERS} The key answers 401 from its next request, on every process. Revoking a revoked key changes nothing (its first \`revokedAt\` stays). Another community's key: 404.`
      )
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
