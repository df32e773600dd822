import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput } from "../domain/AppError"
import { Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { DateOrInstant } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { ParametersRefused } from "../http/requestFailures"
import { Authenticated } from "../http/Security"
import { auditActions, auditTargetTypes } from "./OperatorAudit"

export const AuditQuery = Schema.Struct({
  ...PageQuery.fields,
  action: Schema.optional(OneOf(...auditActions)),
  actor: Schema.optional(Uuid),
  community: Schema.optional(Uuid),
  since: Schema.optional(DateOrInstant),
  until: Schema.optional(DateOrInstant)
})

const AuditEntry = Schema.Struct({
  id: Schema.String,
  actor: Schema.Struct({ id: Schema.String, email: Schema.String }),
  action: OneOf(...auditActions),
  target: Schema.Struct({ type: OneOf(...auditTargetTypes), id: Schema.String }),
  communityId: Schema.NullOr(Schema.String),
  details: Schema.Unknown,
  clientAddress: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

export class AuditApi extends HttpApiGroup.make("operatorAudit")
  .annotateContext(OpenApi.annotations({
    title: "Audit log (operators)",
    description:
      "Who among the platform operators did what: reviews, fee overrides, payout moves, certificates and gateway accounts, over HTTP or the `roda` CLI."
  }))
  .add(
    HttpApiEndpoint.get("list", "/admin/audit")
      .setUrlParams(AuditQuery)
      .addSuccess(Page(AuditEntry))
      .addError(declared(InvalidInput, "invalid_input", "not_date", "period_order"))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "List the operator audit log (operators)")
      .annotate(
        OpenApi.Description,
        `Platform operators (SuperAdmin) only: 403 \`${Messages.platformAdminRequired.en}\` for anyone else; no X-CommunityId. One entry per operator action, written in the action's own transaction (an action that failed or was rolled back has none), newest first (keyset: \`limit\`, \`cursor\`). Each names the \`actor\` (account id and e-mail as they were; over the CLI, the \`--as\` operator), the \`action\` (${
          auditActions.map((action) => `\`${action}\``).join(", ")
        }), the \`target\` (type and id; a fee override is named by its payment method), the \`communityId\`, \`details\` (a reason, amounts, the batch size; secrets are never stored) and \`clientAddress\` (the address the operator acted from, found as every per-client limit finds it: the socket's, or behind \`TRUST_PROXY\` the client its trusted proxies name; null over the CLI and for entries older than it). Filters: \`action\`, \`actor\` (account id), \`community\` (id), \`since\` and \`until\` (an ISO 8601 date, a whole UTC day, or a date-time with an offset; both inclusive, \`since\` before \`until\`). A bad filter answers 400 naming it in \`errors[0].param\`.`
      )
  )
  .middleware(Authenticated)
  .prefix("/api")
{}
