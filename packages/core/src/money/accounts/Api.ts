import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body, Email, Name, Trimmed } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { supportedCountries } from "../../domain/Money"
import { PostalAddressBody } from "../../domain/PostalAddress"
import { OneOf } from "../../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { Authenticated, MemberScope } from "../../http/Security"
import { reviewStatuses } from "./Policy"

const Text = (max: number) => Name(max)

const Country = Schema.compose(Trimmed(2, "must be an ISO 3166-1 alpha-2 country code"), Schema.Uppercase).pipe(
  Schema.filter((value) =>
    supportedCountries.includes(value) ||
    `must be an ISO 3166-1 alpha-2 country code among ${supportedCountries.join(", ")}`
  )
)

const Phone = Trimmed(20, "must be a phone number such as +55 11 99999-0000").pipe(
  Schema.filter((value) => /^\+?[\d\s().-]{8,20}$/.test(value) || "must be a phone number such as +55 11 99999-0000")
)

const Address = PostalAddressBody(Country)

export const BusinessBody = Body({
  country: Country,
  legalName: Text(200),
  taxId: Text(40),
  address: Schema.optional(Address),
  email: Schema.optional(Email),
  phone: Schema.optional(Phone)
})

const Digits = (min: number, max: number) =>
  Trimmed(max, `must be ${min} to ${max} digits`).pipe(
    Schema.filter((value) => new RegExp(`^\\d{${min},${max}}$`).test(value) || `must be ${min} to ${max} digits`)
  )

const BankAccount = Schema.Struct({
  bankCode: Digits(3, 3),
  branch: Digits(1, 5),
  accountNumber: Digits(1, 20),
  accountDigit: Schema.optional(
    Trimmed(1, "must be one digit or X").pipe(Schema.pattern(/^[\dXx]$/, { message: () => "must be one digit or X" }))
  ),
  accountType: OneOf("CHECKING", "SAVINGS"),
  holderName: Text(200),
  holderTaxId: Text(40)
})

export const PayoutBody = Body({
  method: OneOf("PIX", "BANK_ACCOUNT"),
  pixKey: Schema.optional(Text(140)),
  bankAccount: Schema.optional(BankAccount)
})

const RejectBody = Body({ reason: Text(1000) })
const CommunityPath = Schema.Struct({ communityId: Uuid })

const ReviewStatusCode = Schema.Literal(...reviewStatuses)

const ReviewFields = {
  configured: Schema.Boolean,
  status: Schema.NullOr(ReviewStatusCode),
  needsSubmit: Schema.Boolean,
  rejectionReason: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.NullOr(Schema.String),
  updatedAt: Schema.NullOr(Schema.String)
}

const BusinessInformation = Schema.Struct({
  communityId: Schema.String,
  country: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  legalName: Schema.NullOr(Schema.String),
  taxId: Schema.NullOr(Schema.String),
  taxIdType: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.Unknown),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  ...ReviewFields
})

const PayoutSettings = Schema.Struct({
  communityId: Schema.String,
  method: Schema.NullOr(Schema.String),
  pixKey: Schema.NullOr(Schema.String),
  pixKeyType: Schema.NullOr(Schema.String),
  bankAccount: Schema.NullOr(Schema.Unknown),
  ...ReviewFields
})

const PayoutStatus = Schema.Struct({
  configured: Schema.Boolean,
  status: Schema.NullOr(ReviewStatusCode),
  needsSubmit: Schema.Boolean,
  rejectionReason: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.String)
})

const Prerequisite = Schema.Struct({ code: Schema.String, message: Schema.String })

const MANAGERS = "Owner or admin."
const READERS = "Owner, admin or finance."
const LIFECYCLE =
  "Review lifecycle (spec §3; `status` codes `DRAFT`, `PENDING`, `APPROVED`, `REJECTED`): the first save creates `DRAFT`. `submit` is accepted from any state: `DRAFT`, `REJECTED` or an edited `PENDING` go under review (`PENDING` with `submittedAt`; a platform operator answers within 7 business days); a repeated submit of a record under review changes nothing (keeps `submittedAt`, its place in the queue); a submit of an `APPROVED` record puts it under review again (`PENDING` with a new `submittedAt`; spec §3: any state → submit → under review): until it is approved again, publishing and checkout are refused as if it had never been approved, and so are payout requests and sending pending payouts for payout settings. The operator approves (`APPROVED`) or rejects (`REJECTED`, with `rejectionReason`) only a submitted `PENDING` record. Editing: `DRAFT` stays `DRAFT`; `REJECTED` goes back to `DRAFT` (reason cleared); `PENDING` keeps its stage (under review: the reviewer sees the latest data); `APPROVED` becomes `PENDING` with `submittedAt: null` and `needsSubmit: true` (spec: \"needs submit again\") — until it is submitted and approved again publishing and checkout are refused. `needsSubmit` is true while the owner has to submit (DRAFT, REJECTED, edited PENDING). An operator decision on anything but a submitted `PENDING` record answers 409 with `errors[0].param = \"status\"` and the allowed actions."
const EMPTY =
  "Before anything was saved the answer is 200 with the empty state: `configured: false`, `status: null`, `needsSubmit: false` and every other field null (never 404)."

export class BusinessInformationApi extends HttpApiGroup.make("businessInformation")
  .annotateContext(OpenApi.annotations({
    title: "Business information",
    description: "The community's business information, reviewed by platform operators before selling."
  }))
  .add(
    HttpApiEndpoint.get("read", "/business-information")
      .addSuccess(Ok(BusinessInformation))
      .addError(declared(Forbidden, "role_required"))
      .annotate(
        OpenApi.Description,
        `${READERS} The community's business information with its review status and currency (from the country). ${EMPTY} ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Get the business information")
  )
  .add(
    HttpApiEndpoint.post("save", "/business-information")
      .setPayload(BusinessBody)
      .addSuccess(Ok(BusinessInformation))
      .addError(declared(InvalidInput, "tax_id_invalid"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "business_information_not_found"))
      .addError(declared(Conflict, "review_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Creates or replaces the business information: \`country\` (ISO 3166-1 alpha-2; it decides the community currency), \`legalName\`, \`taxId\` (for BR a CPF or a CNPJ, numeric or alphanumeric as issued since July 2026 under IN RFB 2.229/2024, with valid check digits; punctuation and lower case accepted, stored without punctuation in upper case, e.g. \`12ABC34501DE35\`), \`address\` {street, number, complement?, neighbourhood?, city, state, postalCode, country}, \`email\`, \`phone\` (these three optional: conventions.md asks at least country, legalName and taxId). ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Save the business information")
  )
  .add(
    HttpApiEndpoint.post("submit", "/business-information/submit")
      .addSuccess(Ok(BusinessInformation))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "business_information_not_found", "payout_settings_not_found"))
      .addError(declared(Conflict, "review_move"))
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Sends the business information for review (404 while none was saved). ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Submit the business information for review")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}

export class PayoutSettingsApi extends HttpApiGroup.make("payoutSettings")
  .annotateContext(OpenApi.annotations({
    title: "Payout settings",
    description: "Where payouts go, reviewed by platform operators, and what selling still needs."
  }))
  .add(
    HttpApiEndpoint.get("read", "/payout-settings")
      .addSuccess(Ok(PayoutSettings))
      .addError(declared(Forbidden, "role_required"))
      .annotate(
        OpenApi.Description,
        `${READERS} The payout settings with their review status. ${EMPTY} ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Get the payout settings")
  )
  .add(
    HttpApiEndpoint.post("save", "/payout-settings")
      .setPayload(PayoutBody)
      .addSuccess(Ok(PayoutSettings))
      .addError(
        declared(InvalidInput, "bank_account_required", "pix_key_invalid", "pix_key_required", "tax_id_invalid")
      )
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "payout_settings_not_found"))
      .addError(declared(Conflict, "review_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Creates or replaces the payout settings: \`method\` \`PIX\` with \`pixKey\` (CPF, numeric or alphanumeric CNPJ, e-mail, phone as +55… or random key; \`pixKeyType\` is detected) or \`BANK_ACCOUNT\` with \`bankAccount\` {bankCode (3 digits), branch, accountNumber, accountDigit?, accountType CHECKING|SAVINGS, holderName, holderTaxId (valid CPF or numeric/alphanumeric CNPJ, stored like \`taxId\`)}; the field of the other method is ignored and cleared. ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Save the payout settings")
  )
  .add(
    HttpApiEndpoint.post("submit", "/payout-settings/submit")
      .addSuccess(Ok(PayoutSettings))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "business_information_not_found", "payout_settings_not_found"))
      .addError(declared(Conflict, "review_move"))
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Sends the payout settings for review (404 while none were saved). ${LIFECYCLE}`
      )
      .annotate(OpenApi.Summary, "Submit the payout settings for review")
  )
  .add(
    HttpApiEndpoint.get("status", "/payout-settings/status")
      .addSuccess(Ok(PayoutStatus))
      .addError(declared(Forbidden, "role_required"))
      .annotate(
        OpenApi.Description,
        `${READERS} Review status of the payout settings: \`status\` \`DRAFT\` | \`PENDING\` | \`APPROVED\` | \`REJECTED\`, \`needsSubmit\` (\`configured: false\` and nulls while none were saved).`
      )
      .annotate(OpenApi.Summary, "Get the payout settings' review status")
  )
  .add(
    HttpApiEndpoint.get("prerequisites", "/payout-settings/prerequisites")
      .addSuccess(Ok(Schema.Array(Prerequisite)))
      .addError(declared(Forbidden, "role_required"))
      .annotate(
        OpenApi.Description,
        `${READERS} What is still missing before the community can sell and receive payouts, each \`{code, message}\`: \`BUSINESS_INFORMATION_…\` and \`PAYOUT_SETTINGS_…\` with \`MISSING\`, \`NOT_SUBMITTED\`, \`UNDER_REVIEW\` or \`REJECTED\` (the message carries the reason). Empty when both are approved.`
      )
      .annotate(OpenApi.Summary, "List what selling still needs")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}

const ADMIN =
  "SuperAdmin only (403 otherwise); no X-CommunityId: the path names the target community (404 when unknown or when nothing was saved). Only a submitted `PENDING` record can be decided (409 otherwise, also for an approved record edited and not submitted again). The community's owners are e-mailed either way."

const decision = <Name extends string, Path extends `/${string}`>(name: Name, path: Path, what: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(CommunityPath)
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .annotate(OpenApi.Description, `${ADMIN} ${what}`)

export class SellingReviewApi extends HttpApiGroup.make("sellingReview")
  .annotateContext(OpenApi.annotations({
    title: "Selling review (operators)",
    description: "Platform operators approve or reject business information and payout settings."
  }))
  .add(
    decision(
      "approveBusiness",
      "/admin/communities/:communityId/business-information/approve",
      "Approves the business information."
    )
      .addSuccess(Ok(BusinessInformation))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(
        declared(NotFound, "business_information_not_found", "community_not_found", "payout_settings_not_found")
      )
      .addError(declared(Conflict, "review_move"))
      .annotate(OpenApi.Summary, "Approve business information (operators)")
  )
  .add(
    decision(
      "rejectBusiness",
      "/admin/communities/:communityId/business-information/reject",
      "Rejects the business information; `reason` is required and sent to the owners."
    )
      .setPayload(RejectBody)
      .addSuccess(Ok(BusinessInformation))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(
        declared(NotFound, "business_information_not_found", "community_not_found", "payout_settings_not_found")
      )
      .addError(declared(Conflict, "review_move"))
      .annotate(OpenApi.Summary, "Reject business information (operators)")
  )
  .add(
    decision(
      "approvePayout",
      "/admin/communities/:communityId/payout-settings/approve",
      "Approves the payout settings."
    )
      .addSuccess(Ok(PayoutSettings))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(
        declared(NotFound, "business_information_not_found", "community_not_found", "payout_settings_not_found")
      )
      .addError(declared(Conflict, "review_move"))
      .annotate(OpenApi.Summary, "Approve payout settings (operators)")
  )
  .add(
    decision(
      "rejectPayout",
      "/admin/communities/:communityId/payout-settings/reject",
      "Rejects the payout settings; `reason` is required and sent to the owners."
    )
      .setPayload(RejectBody)
      .addSuccess(Ok(PayoutSettings))
      .addError(declared(Forbidden, "platform_admin_required"))
      .addError(
        declared(NotFound, "business_information_not_found", "community_not_found", "payout_settings_not_found")
      )
      .addError(declared(Conflict, "review_move"))
      .annotate(OpenApi.Summary, "Reject payout settings (operators)")
  )
  .middleware(Authenticated)
  .prefix("/api")
{}
