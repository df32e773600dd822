import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound } from "../../domain/AppError"
import { Ok } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { Authenticated } from "../../http/Security"

const AccountId = Schema.String.pipe(Schema.maxLength(105), Schema.pattern(/^acct_[A-Za-z0-9]{1,100}$/)).annotations({
  message: () => ({ message: "must be a Stripe account id (acct_…)", override: true })
})

const GatewayAccount = Schema.Struct({
  communityId: Schema.String,
  gateway: Schema.String,
  accountId: Schema.NullOr(Schema.String)
})

const PATH = Schema.Struct({ communityId: Uuid })
const OPERATOR = "Platform operators (SuperAdmin) only: 403 for anyone else; an unknown community answers 404."

export class GatewayAccountsApi extends HttpApiGroup.make("gatewayAccounts")
  .annotateContext(OpenApi.annotations({
    title: "Gateway accounts (operators)",
    description: "The account that sells for a community at the payment gateway (Stripe Connect)."
  }))
  .add(
    HttpApiEndpoint.get("get", "/admin/communities/:communityId/gateway-account")
      .setPath(PATH)
      .addSuccess(Ok(GatewayAccount))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} The community's connected account at the active gateway (\`accountId: null\`: the platform account sells, without an application fee).`
      )
      .annotate(OpenApi.Summary, "Read a community's gateway account (operators)")
  )
  .add(
    HttpApiEndpoint.put("set", "/admin/communities/:communityId/gateway-account")
      .setPath(PATH)
      .setPayload(Body({ accountId: AccountId }))
      .addSuccess(Ok(GatewayAccount))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${OPERATOR} Sets the Stripe Connect account (\`acct_…\`, onboarded in Stripe) that sells for the community: its charges from then on are destination charges \`on_behalf_of\` it, with the platform's fee and buyer-paid interest as the application fee. Charges already made keep their seller.`
      )
      .annotate(OpenApi.Summary, "Set a community's gateway account (operators)")
  )
  .add(
    HttpApiEndpoint.del("remove", "/admin/communities/:communityId/gateway-account")
      .setPath(PATH)
      .addSuccess(Ok(GatewayAccount))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, `${OPERATOR} The platform account sells for the community again.`)
      .annotate(OpenApi.Summary, "Remove a community's gateway account (operators)")
  )
  .middleware(Authenticated)
  .prefix("/api")
{}
