import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok } from "../../domain/Envelope"
import { Body, Email, Name } from "../../domain/Fields"
import { Uuid } from "../../domain/Ids"
import { supportedCountries } from "../../domain/Money"
import { OneOf } from "../../domain/Role"
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from "../../http/ApiErrors"
import { Authenticated, MemberScope } from "../../http/middleware/tags"

const Text = (max: number) => Name(max)
const OptionalText = (max: number) => Schema.optional(Name(max))

const Country = Schema.compose(Schema.Trim, Schema.Uppercase).pipe(
  Schema.filter((value) =>
    supportedCountries.includes(value) ||
    `must be an ISO 3166-1 alpha-2 country code among ${supportedCountries.join(", ")}`
  )
)

const Phone = Schema.Trim.pipe(
  Schema.filter((value) => /^\+?[\d\s().-]{8,20}$/.test(value) || "must be a phone number such as +55 11 99999-0000")
)

const Address = Schema.Struct({
  street: Text(200),
  number: Text(20),
  complement: OptionalText(200),
  neighbourhood: OptionalText(200),
  city: Text(200),
  state: Text(100),
  postalCode: Text(20),
  country: Country
})

export const BusinessBody = Body({
  country: Country,
  legalName: Text(200),
  taxId: Text(40),
  address: Schema.optional(Address),
  email: Schema.optional(Email),
  phone: Schema.optional(Phone)
})

const Digits = (min: number, max: number) =>
  Schema.Trim.pipe(
    Schema.filter((value) => new RegExp(`^\\d{${min},${max}}$`).test(value) || `must be ${min} to ${max} digits`)
  )

const BankAccount = Schema.Struct({
  bankCode: Digits(3, 3),
  branch: Digits(1, 5),
  accountNumber: Digits(1, 20),
  accountDigit: Schema.optional(
    Schema.Trim.pipe(Schema.pattern(/^[\dXx]$/, { message: () => "must be one digit or X" }))
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

const ReviewFields = {
  status: OneOf("draft", "pending", "approved", "rejected"),
  rejectionReason: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
}

const BusinessInformation = Schema.Struct({
  communityId: Schema.String,
  country: Schema.String,
  currency: Schema.String,
  legalName: Schema.String,
  taxId: Schema.String,
  taxIdType: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.Unknown),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  ...ReviewFields
})

const PayoutSettings = Schema.Struct({
  communityId: Schema.String,
  method: Schema.String,
  pixKey: Schema.NullOr(Schema.String),
  pixKeyType: Schema.NullOr(Schema.String),
  bankAccount: Schema.NullOr(Schema.Unknown),
  ...ReviewFields
})

const PayoutStatus = Schema.Struct({
  configured: Schema.Boolean,
  status: Schema.NullOr(Schema.String),
  rejectionReason: Schema.NullOr(Schema.String),
  submittedAt: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.String)
})

const Prerequisite = Schema.Struct({ code: Schema.String, message: Schema.String })

const MANAGERS = "Owner or admin."
const READERS = "Owner, admin or finance."
const LIFECYCLE =
  "Review lifecycle: created `draft`; `submit` moves draft or rejected to `pending` (a platform operator answers within 7 business days); the operator approves (`approved`) or rejects (`rejected`, with `rejectionReason`). Editing: draft stays draft, rejected goes back to draft, pending stays pending (the reviewer sees the latest data), approved goes back to `pending` and must be approved again — until then publishing and checkout are refused. Any other move answers 409 with `errors[0].param = \"status\"` and the allowed actions."

export class BusinessInformationApi extends HttpApiGroup.make("businessInformation")
  .add(
    HttpApiEndpoint.get("read", "/business-information")
      .addSuccess(Ok(BusinessInformation))
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        `${READERS} The community's business information with its review status and currency (from the country). 404 while none was saved. ${LIFECYCLE}`
      )
  )
  .add(
    HttpApiEndpoint.post("save", "/business-information")
      .setPayload(BusinessBody)
      .addSuccess(Ok(BusinessInformation))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Creates or replaces the business information: \`country\` (ISO 3166-1 alpha-2; it decides the community currency), \`legalName\`, \`taxId\` (for BR a CPF or CNPJ with valid check digits, punctuation accepted, stored as digits), \`address\` {street, number, complement?, neighbourhood?, city, state, postalCode, country}, \`email\`, \`phone\` (these three optional: conventions.md asks at least country, legalName and taxId). ${LIFECYCLE}`
      )
  )
  .add(
    HttpApiEndpoint.post("submit", "/business-information/submit")
      .addSuccess(Ok(BusinessInformation))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Description, `${MANAGERS} Sends the business information for review. ${LIFECYCLE}`)
  )
  .middleware(MemberScope)
  .addError(Unauthorized)
  .prefix("/api")
{}

export class PayoutSettingsApi extends HttpApiGroup.make("payoutSettings")
  .add(
    HttpApiEndpoint.get("read", "/payout-settings")
      .addSuccess(Ok(PayoutSettings))
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        `${READERS} The payout settings with their review status; 404 while none were saved.`
      )
  )
  .add(
    HttpApiEndpoint.post("save", "/payout-settings")
      .setPayload(PayoutBody)
      .addSuccess(Ok(PayoutSettings))
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        `${MANAGERS} Creates or replaces the payout settings: \`method\` \`PIX\` with \`pixKey\` (CPF, CNPJ, e-mail, phone as +55… or random key; \`pixKeyType\` is detected) or \`BANK_ACCOUNT\` with \`bankAccount\` {bankCode (3 digits), branch, accountNumber, accountDigit?, accountType CHECKING|SAVINGS, holderName, holderTaxId (valid CPF/CNPJ)}; the field of the other method is ignored and cleared. ${LIFECYCLE}`
      )
  )
  .add(
    HttpApiEndpoint.post("submit", "/payout-settings/submit")
      .addSuccess(Ok(PayoutSettings))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Description, `${MANAGERS} Sends the payout settings for review. ${LIFECYCLE}`)
  )
  .add(
    HttpApiEndpoint.get("status", "/payout-settings/status")
      .addSuccess(Ok(PayoutStatus))
      .addError(Forbidden)
      .annotate(
        OpenApi.Description,
        `${READERS} Review status of the payout settings (\`configured: false\` and nulls while none were saved).`
      )
  )
  .add(
    HttpApiEndpoint.get("prerequisites", "/payout-settings/prerequisites")
      .addSuccess(Ok(Schema.Array(Prerequisite)))
      .addError(Forbidden)
      .annotate(
        OpenApi.Description,
        `${READERS} What is still missing before the community can sell and receive payouts, each \`{code, message}\`: \`BUSINESS_INFORMATION_…\` and \`PAYOUT_SETTINGS_…\` with \`MISSING\`, \`NOT_SUBMITTED\`, \`UNDER_REVIEW\` or \`REJECTED\` (the message carries the reason). Empty when both are approved.`
      )
  )
  .middleware(MemberScope)
  .addError(Unauthorized)
  .prefix("/api")
{}

const ADMIN =
  "SuperAdmin only (403 otherwise); no X-CommunityId: the path names the target community (404 when unknown or when nothing was saved). Only a `pending` submission can be decided (409 otherwise). The community's owners are e-mailed either way."

const decision = <Name extends string, Path extends `/${string}`>(name: Name, path: Path, what: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(CommunityPath)
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .annotate(OpenApi.Description, `${ADMIN} ${what}`)

export class SellingReviewApi extends HttpApiGroup.make("sellingReview")
  .add(
    decision(
      "approveBusiness",
      "/admin/communities/:communityId/business-information/approve",
      "Approves the business information."
    )
      .addSuccess(Ok(BusinessInformation))
  )
  .add(
    decision(
      "rejectBusiness",
      "/admin/communities/:communityId/business-information/reject",
      "Rejects the business information; `reason` is required and sent to the owners."
    )
      .setPayload(RejectBody)
      .addSuccess(Ok(BusinessInformation))
  )
  .add(
    decision(
      "approvePayout",
      "/admin/communities/:communityId/payout-settings/approve",
      "Approves the payout settings."
    )
      .addSuccess(Ok(PayoutSettings))
  )
  .add(
    decision(
      "rejectPayout",
      "/admin/communities/:communityId/payout-settings/reject",
      "Rejects the payout settings; `reason` is required and sent to the owners."
    )
      .setPayload(RejectBody)
      .addSuccess(Ok(PayoutSettings))
  )
  .middleware(Authenticated)
  .addError(Unauthorized)
  .prefix("/api")
{}
