import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Conflict, Forbidden, Gone, InvalidInput, NotFound, RateLimited, Unauthenticated } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Email, Name, NewPassword } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated } from "../http/Security"

export const MemberSummary = Schema.Struct({ id: Schema.String, email: Schema.String, fullName: Schema.String })

export const RegisterPayload = Body({ fullName: Name(), email: Email, password: NewPassword })
export const LoginPayload = Body({
  email: Schema.String.pipe(Schema.maxLength(320)),
  password: Schema.String.pipe(Schema.maxLength(200))
})
export const ChangePasswordPayload = Body({
  currentPassword: Schema.String.pipe(Schema.maxLength(200)),
  newPassword: NewPassword
})
export const RecoveryPayload = Body({ email: Email })
export const ConfirmEmailPayload = Body({
  id: Uuid,
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})
export const SetPasswordPayload = Body({
  id: Uuid,
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  password: NewPassword,
  /** End every session and OAuth grant of the account (a recovery after a stolen token). */
  logoutAll: Schema.optional(Schema.Boolean)
})
export const LogoutAllPayload = Body({ keepCurrent: Schema.optional(Schema.Boolean) })

/** A sign-in session of the caller (`GET /api/auth/sessions`). */
export const SessionView = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.String,
  /** To the minute. */
  lastUsedAt: Schema.String,
  userAgent: Schema.NullOr(Schema.String),
  clientAddress: Schema.NullOr(Schema.String),
  /** The session of the request's own token. */
  current: Schema.Boolean
})
const Ended = Schema.Struct({ sessions: Schema.Number, connections: Schema.Number })

export const Me = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  /** The holder has used a link e-mailed to this address. */
  emailVerified: Schema.Boolean,
  /** A verified e-mail listed in PLATFORM_ADMIN_EMAILS. */
  isPlatformAdmin: Schema.Boolean,
  createdAt: Schema.String
})

/** `GET /api/auth/me`'s answer. */
export const MeAnswer = Ok(Me)

const Registered = Schema.Struct({ ...MemberSummary.fields, token: Schema.String })
/** `POST /api/auth/register`'s answer. */
export const RegisterAnswer = Ok(Registered)
const LoginResult = Schema.Struct({ token: Schema.String, member: MemberSummary })

export class IdentityApi extends HttpApiGroup.make("identity")
  .annotateContext(OpenApi.annotations({
    title: "Authentication",
    description:
      "Accounts: sign-up, sign-in (a 7-day JWT), the caller's account, passwords and e-mail links. No X-CommunityId."
  }))
  .add(
    HttpApiEndpoint.post("register", "/auth/register")
      .setPayload(RegisterPayload)
      .addSuccess(RegisterAnswer, { status: 201 })
      .addError(declared(Conflict, "email_taken"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "register")
      .annotate(
        OpenApi.Description,
        "Creates an account (no community) and e-mails a confirmation link (valid 24 hours, used through POST /api/auth/confirm-email), written in the same transaction as the account. The token answered works at once: sign-in does not wait for the confirmation. Inviting others, opening a call for papers, requesting a payout and platform-operator rights need a confirmed e-mail (403 otherwise). 409 when the e-mail is registered."
      )
      .annotate(OpenApi.Summary, "Register an account")
  )
  .add(
    HttpApiEndpoint.post("login", "/auth/login")
      .setPayload(LoginPayload)
      .addSuccess(Ok(LoginResult))
      .addError(declared(Unauthenticated, "invalid_credentials"))
      .addError(declared(RateLimited, "too_many_attempts"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Exchanges e-mail and password for a 7-day JWT. Failed attempts are limited per account and per client address (429 with Retry-After)."
      )
      .annotate(OpenApi.Summary, "Sign in")
  )
  .add(
    HttpApiEndpoint.get("me", "/auth/me").addSuccess(MeAnswer).middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The caller's account. `emailVerified`: the holder has used a link e-mailed to the current address (set-password from an invitation or recovery, or an e-mail confirmation). `isPlatformAdmin`: the e-mail is listed in PLATFORM_ADMIN_EMAILS and verified; it is evaluated again after every e-mail change."
      )
      .annotate(OpenApi.Summary, "Get the caller's account")
  )
  .add(
    HttpApiEndpoint.put("changePassword", "/auth/change-password")
      .setPayload(ChangePasswordPayload)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(InvalidInput, "current_password_wrong"))
      .addError(declared(RateLimited, "too_many_attempts"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Tokens already issued stay valid until they expire (spec §5.3): a password change alone ends no session (end them with POST /api/auth/logout-all). Wrong current passwords are limited as sign-in failures are, per account and client address and per address (429 with Retry-After); the caller holds a live session of the account, so the account's limit over all addresses never counts against them."
      )
      .annotate(OpenApi.Summary, "Change the password")
  )
  .add(
    HttpApiEndpoint.post("recoveryPassword", "/auth/recovery-password")
      .setPayload(RecoveryPayload)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "recovery")
      .annotate(
        OpenApi.Description,
        "Always answers the same, at once, whether or not the e-mail is registered: the look-up and the e-mail are done after the answer, so its timing tells nothing either. A registered address gets a single-use link valid for 1 hour; using it also verifies the address."
      )
      .annotate(OpenApi.Summary, "Request a password recovery link")
  )
  .add(
    HttpApiEndpoint.post("setPassword", "/auth/set-password")
      .setPayload(SetPasswordPayload)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(InvalidInput, "link_invalid"))
      .addError(declared(Gone, "link_expired"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Completes an invite or recovery link: 400 for a wrong token, 410 for a used or expired link. Using the link verifies the e-mail it was sent to, if it is still the account's. With `logoutAll: true`, every session of the account ends and every OAuth grant (assistant connection) is revoked, in the same transaction: a stolen token stops working on its next request."
      )
      .annotate(OpenApi.Summary, "Set a password from an e-mailed link")
  )
  .add(
    HttpApiEndpoint.post("confirmEmail", "/auth/confirm-email")
      .setPayload(ConfirmEmailPayload)
      .addSuccess(Ok(Schema.Struct({ email: Schema.String })))
      .addError(declared(InvalidInput, "link_invalid"))
      .addError(declared(Conflict, "email_taken"))
      .addError(declared(Gone, "link_expired"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "No token, no X-CommunityId: completes a link from `{publicBaseUrl}/confirm-email?id=…&token=…` (`id` is the account id). An e-mail change link makes the new address the login e-mail, verified, and closes the account's other open links (sent to the old address) but the undo links; a verification link verifies the current address; an undo link (sent to the old address with the change's notice, valid 7 days, usable before or after the change was confirmed) gives the login back to that address, verified, closes the account's other open links (a pending change too) and ends every session and OAuth grant of the account (the holder then resets the password through recovery). 400 for a wrong token, 410 for a used or expired link (or a verification link of an address the account no longer has), 409 when another account took the address meanwhile. Answers the address now confirmed."
      )
      .annotate(OpenApi.Summary, "Confirm an e-mail change")
  )
  .add(
    HttpApiEndpoint.post("verifyEmail", "/auth/verify-email")
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Unauthenticated, "token_invalid"))
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "verifyEmail")
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Sends the caller a link (valid 24 hours) to their current address that verifies it when used through POST /api/auth/confirm-email. Sign-up sends one already; this sends a fresh one (e.g. when the first expired). An already verified address gets nothing."
      )
      .annotate(OpenApi.Summary, "Send an e-mail verification link")
  )
  .add(
    HttpApiEndpoint.get("sessions", "/auth/sessions")
      .setUrlParams(PageQuery)
      .addSuccess(Page(SessionView))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The caller's open sessions (one per sign-in: login, register), newest first (keyset: `limit`, `cursor`): `lastUsedAt` to the minute (marked at most once a minute per session, off the request's path), `userAgent` and `clientAddress` of the sign-in (the client address as every per-client limit finds it, behind `TRUST_PROXY`), `current` for the request's own. No X-CommunityId."
      )
      .annotate(OpenApi.Summary, "List the caller's sessions")
  )
  .add(
    HttpApiEndpoint.del("endSession", "/auth/sessions/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(NotFound, "session_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Ends one of the caller's sessions: its tokens answer 401 `Invalid or expired token` from their next request, on every process. Another account's session, an ended one or an unknown id: 404."
      )
      .annotate(OpenApi.Summary, "End one session")
  )
  .add(
    HttpApiEndpoint.post("logout", "/auth/logout")
      .addSuccess(Ok(Schema.Null))
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(OpenApi.Description, "Ends the current session (the request's token). OAuth grants stay.")
      .annotate(OpenApi.Summary, "Sign out")
  )
  .add(
    HttpApiEndpoint.post("logoutAll", "/auth/logout-all")
      .setPayload(LogoutAllPayload)
      .addSuccess(Ok(Ended))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Ends every session of the caller (but the current one with `keepCurrent: true`; default false) and revokes every OAuth grant of the account in every community (its assistants' access tokens answer 401 on /mcp, their refresh tokens fail). Answers how many `sessions` and `connections` ended. No body is the same as `{}`."
      )
      .annotate(OpenApi.Summary, "Sign out everywhere")
  )
  .add(
    HttpApiEndpoint.del("endAccountSessions", "/admin/accounts/:id/sessions")
      .setPath(IdParam)
      .addSuccess(Ok(Ended))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(declared(NotFound, "account_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Platform operators (SuperAdmin) only: 403 for anyone else; no X-CommunityId. Ends every session of the account and revokes its OAuth grants, as its own logout-all does; recorded in the operator audit log (`account.sessions_end`, target `account`). 404 for an unknown account. Also `roda admin sessions end <e-mail or id> --as <operator>`."
      )
      .annotate(OpenApi.Summary, "End every session of an account (operators)")
  )
  .prefix("/api")
{}
