import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Gone, NotFound, RateLimited } from "../domain/AppError"
import { Ok } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { IdParam } from "../domain/Ids"
import { ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated } from "../http/Security"

/** An export of the caller's data. */
export const DataExport = Schema.Struct({
  id: Schema.String,
  /** `pending` → `running` → `ready` → `expired`; `failed` when every attempt failed. */
  status: Schema.Literal("pending", "running", "ready", "failed", "expired"),
  createdAt: Schema.String,
  readyAt: Schema.NullOr(Schema.String),
  /** 7 days after `readyAt`: the file is deleted and its link answers 410. */
  expiresAt: Schema.NullOr(Schema.String),
  /** The ZIP's size in bytes, once ready. */
  size: Schema.NullOr(Schema.Number),
  /** The signed download link (the one e-mailed), while `ready`; null otherwise. */
  downloadUrl: Schema.NullOr(Schema.String)
})

const TokenQuery = Schema.Struct({
  token: Schema.String.pipe(Schema.maxLength(1_000)).annotations({
    description: "The token of the download link e-mailed when the export was ready"
  })
})

const ZipFile = HttpApiSchema.Uint8Array({ contentType: "application/zip" })

const ABOUT =
  "Members' data rights (LGPD art. 18, GDPR art. 15 and 20): a ZIP of JSON files with what Roda holds of the caller's account in every community (account, profiles, posts, comments, reactions, enrollments and progress, participations, purchases, subscriptions, certificates, submissions and reviews, notifications; each file a JSON array, listed with what it holds in `README.txt`). The account's own token (a session, not an API key); no X-CommunityId."

export class PrivacyExportsApi extends HttpApiGroup.make("privacyExports")
  .annotateContext(OpenApi.annotations({
    title: "Data exports",
    description:
      `${ABOUT} A job builds the file; when it is ready the account is e-mailed a download link valid 7 days.`
  }))
  .add(
    HttpApiEndpoint.post("request", "/account/export")
      .addSuccess(Ok(DataExport), { status: 202 })
      .addError(declared(RateLimited, "export_limit"))
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(OpenApi.Summary, "Export my data")
      .annotate(
        OpenApi.Description,
        `${ABOUT} Answers 202 with \`data.id\` and \`status: pending\`; a durable job builds the ZIP and e-mails the account a download link valid 7 days (also \`downloadUrl\` in GET /api/account/exports/{id}). One export at a time: while one is \`pending\` or \`running\`, asking again answers that one (202, the same id, no new job). At most 3 exports in 24 hours (failed ones not counted): the fourth answers 429 with \`Retry-After\` (seconds until the oldest of the three is 24 hours old).`
      )
  )
  .add(
    HttpApiEndpoint.get("status", "/account/exports/:id")
      .setPath(IdParam)
      .addSuccess(Ok(DataExport))
      .addError(declared(NotFound, "export_not_found"))
      .addError(ParametersRefused)
      .middleware(Authenticated)
      .annotate(OpenApi.Summary, "Get a data export")
      .annotate(
        OpenApi.Description,
        "An export of the caller's data: `status` (`pending`, `running`, `ready`, `failed`, `expired`), `createdAt`, `readyAt`, `expiresAt` (7 days after `readyAt`), `size` (bytes) and, while `ready`, `downloadUrl` (the signed link that was e-mailed). Another account's export answers 404; a malformed id 400."
      )
  )
  .add(
    HttpApiEndpoint.get("download", "/account/exports/:id/download")
      .setPath(IdParam)
      .setUrlParams(TokenQuery)
      .addSuccess(ZipFile)
      .addError(declared(NotFound, "export_link_invalid"))
      .addError(declared(Gone, "export_link_expired"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Download a data export")
      .annotate(
        OpenApi.Description,
        "The target of the link e-mailed when an export is ready (and its `downloadUrl`): no sign-in and no X-CommunityId, the `token` authorises it. The token is an HMAC (keyed from the server's secret) over the export id and its expiry, so it serves that export only, until its `expiresAt` (7 days after it was ready). Answers the ZIP (`Content-Type: application/zip`, `Content-Disposition: attachment`, `Cache-Control: private, no-store`, `Referrer-Policy: no-referrer`), streamed from the file store. A token the server did not sign, or signed for another export, answers 404 (nothing is told about the export); an expired link, or an export whose file was deleted, answers 410."
      )
  )
  .prefix("/api")
{}
