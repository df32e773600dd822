import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { InvalidInput } from "../domain/AppError"
import { declared } from "../domain/Failure"
import { ParametersRefused, WriteRefused } from "../http/requestFailures"

const TokenQuery = Schema.Struct({
  token: Schema.String.pipe(Schema.maxLength(4_000)).annotations({
    description: "The token of the e-mail's `List-Unsubscribe` link"
  })
})

const ABOUT =
  "Every notification e-mail carries `List-Unsubscribe: <{publicBaseUrl}/api/notifications/unsubscribe?token=…>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058). The token (signed by the server, no expiry, no sign-in, no `X-CommunityId`) names the member, the community and the kinds the e-mail was about (a digest: every kind it listed)."

/** The one-click unsubscribe of notification e-mails (RFC 8058): Public, for mail clients and people. */
export class NotificationUnsubscribeApi extends HttpApiGroup.make("notificationUnsubscribe")
  .annotateContext(OpenApi.annotations({
    title: "Notification e-mail unsubscribe",
    description: "The link every notification e-mail carries to stop that kind of e-mail in one click."
  }))
  .add(
    HttpApiEndpoint.get("page", "/notifications/unsubscribe")
      .setUrlParams(TokenQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(declared(InvalidInput, "unsubscribe_token_invalid"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Unsubscribe page")
      .annotate(
        OpenApi.Description,
        `${ABOUT} Public: a small HTML page (in the request's language) that asks to confirm with one button, which posts to the same address; opening the link changes nothing (mail scanners open links). A token that is not one the server signed answers 400 (\`errors[].param\`: \`token\`).`
      )
  )
  .add(
    HttpApiEndpoint.post("unsubscribe", "/notifications/unsubscribe")
      .setUrlParams(TokenQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(declared(InvalidInput, "unsubscribe_token_invalid"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Unsubscribe in one click")
      .annotate(
        OpenApi.Description,
        `${ABOUT} Public: turns that member's e-mail of those kinds \`off\` in that community (their in-app setting stays) and drops the e-mails still waiting for them; answers a small HTML confirmation. The body a mail client sends (\`List-Unsubscribe=One-Click\`, form-encoded) or none is accepted. Repeating it changes nothing; a member no longer in the community gets the same answer. A token the server did not sign answers 400 (\`errors[].param\`: \`token\`).`
      )
  )
  .prefix("/api")
{}
