import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, InvalidInput, RateLimited } from "../domain/AppError"
import { Ok } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body } from "../domain/Fields"
import { BodyRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated } from "../http/Security"

export const ErasePayload = Body({
  /** The account's password, checked as change-password checks the current one. */
  password: Schema.String.pipe(Schema.maxLength(200)),
  /** Delete the member's posts and comments too; otherwise they stay under the former-member name. */
  deleteContent: Schema.optional(Schema.Boolean)
})

/** What an erasure answers: the erased account and whether its posts and comments were deleted. */
export const Erased = Schema.Struct({ id: Schema.String, deleteContent: Schema.Boolean })

/**
 * What every feature keeps after an erasure, and why: the `keeps` of the erasure steps
 * (`<feature>/personalDataErasure.ts`); test/privacy/erasure-keeps.test.ts holds each step's text to
 * a line here.
 */
export const erasureKeeps = [
  "commerce/checkout: orders (purchases, charges, refunds, disputes) with their amounts, dates and the pseudonymous account and profile ids, for 5 years as Brazilian tax law requires (CTN arts. 173 and 174) and for consumer-law claims (CDC art. 27); the buyer's name and e-mail are not copied into them.",
  "money/ledger: ledger entries and balances (amounts and the pseudonymous references of the sales they record), for the same 5 years of tax law; they hold no name.",
  "commerce/subscriptions: subscriptions and their billings, amounts and dates under the pseudonymous profile id (tax and consumer law); running ones are canceled at the period end.",
  "certificates: issued certificates keep their verification code, course and date (a third party may still verify one it was shown), with the recipient's name replaced by the former-member name and the e-mail erased.",
  "identity: the account row (id, creation date, `erased_at`) with an e-mail of `erased+<id>@invalid`, so that orders, ledger and certificates keep a pseudonymous reference; no name, password or session.",
  "audit: the operator audit log keeps operators' own entries (their e-mail as the actor), including the erasure and its written-request reference."
] as const

const description = [
  "Erases the caller's account (members' data rights, LGPD / GDPR). No X-CommunityId; a session token (API keys and OAuth tokens are not accepted for accounts).",
  "",
  "Body `{ \"password\", \"deleteContent\"?: boolean }`. A wrong password answers 400 `current_password_wrong` (`errors[].param` = `password`) and is limited as change-password's wrong current passwords are (per account and client address, and per address: 429 with Retry-After).",
  "",
  "The owner of a community with other live members must hand it over first: 409 `owned_communities` naming each such community in the message and in `errors[]` (`param` `communities`, one entry per community with its name and id); nothing changes. A community the caller owns alone is deleted with the account (`deleted_at`: its slug and domain become free).",
  "",
  "In one transaction, in this order of the features:",
  "- every session ends (the token answers 401 from its next request), every open e-mail link is closed, every API key the account created is revoked, every OAuth grant (assistant connection) is revoked;",
  "- running subscriptions are canceled at the period end (an active one keeps its access until then; a past-due, unpaid, paused or incomplete one ends now, as a member's own cancel does);",
  "- each profile, in every community (removed and banned ones too), becomes \"Ex-membro\" (\"Former member\" in a community whose `settings.language` is `en`): phone, bio, avatar and tags cleared, and it leaves the community (`removed_at`); its files are removed from the blob store by a job; the community's sales e-mail is cleared when it was the account's;",
  "- with `deleteContent: true`, the member's status posts, content posts and comments (and the replies under those comments) are deleted as a member deleting them would (soft delete: gone from feeds, search and counts), and their reactions removed; otherwise posts, comments and reactions stay, shown under the former-member name (no post, search entry or notification keeps a copy of the name);",
  "- notifications: the member's inbox, space follows and preferences are deleted;",
  "- call for papers (speakers, reviews) and moderation (reports the member filed) name the profile only, so they show the former-member name; certificates take that name too and lose the copied e-mail, their files (which show the name) removed by a job;",
  "- finally the account: e-mail, name and password erased (`erased+<id>@invalid`, `erased_at` set). The same e-mail may register again afterwards, as a new account.",
  "",
  "Kept, and why:",
  ...erasureKeeps.map((line) => `- ${line}`),
  "",
  "Answers 200 with `data.id` (the erased account) and `data.deleteContent`. Operators erase on a member's written request with `roda admin accounts erase --email <e> [--delete-content] --reason <ref> --as <operator>` (or `--id <account id>`; no password; recorded in the operator audit log as `account.erase` with the reference; refused, naming them, while the account owns a community with other members); a second run changes nothing."
].join("\n")

export class ErasureApi extends HttpApiGroup.make("privacyErasure")
  .annotateContext(OpenApi.annotations({
    title: "Data rights",
    description: "Members' data rights (LGPD / GDPR): erasure of the caller's account. No X-CommunityId."
  }))
  .add(
    HttpApiEndpoint.del("eraseAccount", "/account")
      .setPayload(ErasePayload)
      .addSuccess(Ok(Erased))
      .addError(declared(InvalidInput, "current_password_wrong"))
      .addError(declared(Conflict, "owned_communities"))
      .addError(declared(RateLimited, "too_many_attempts"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(OpenApi.Description, description)
      .annotate(OpenApi.Summary, "Erase the caller's account")
  )
  .prefix("/api")
{}
