import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { OperatorAudit } from "../../audit/OperatorAudit"
import { invalidField, notFound } from "../../domain/AppError"
import type { Account, Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import type { CommunityId } from "../../domain/Ids"
import { requirePlatformAdmin, requireRole } from "../../domain/Policy"
import type { PostalAddress } from "../../domain/PostalAddress"
import { managerRoles, type Role } from "../../domain/Role"
import { brazilianTaxIdKind, normalizeTaxId } from "../../domain/TaxId"
import { Mailer } from "../../platform/Mailer"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { accountsMessages as M } from "./messages"
import { parsePixKey } from "./pixKey"
import { nextStage, type ReviewAction, type ReviewStage, stageOf, statusOf } from "./Policy"
import { prerequisitesOf } from "./prerequisites"
import { type BankAccount, type Review, type ReviewChange, SellingAccountsRepo } from "./Repo"
import { reviewMail } from "./reviewMail"
import { businessView, payoutStatusView, payoutView } from "./view"

export interface BusinessInput {
  readonly country: string
  readonly legalName: string
  readonly taxId: string
  readonly address?: PostalAddress | undefined
  readonly email?: string | undefined
  readonly phone?: string | undefined
}

export interface PayoutInput {
  readonly method: "PIX" | "BANK_ACCOUNT"
  readonly pixKey?: string | undefined
  readonly bankAccount?: BankAccount | undefined
}

export type Subject = "business" | "payout"
export type Decision = { readonly approve: true } | { readonly approve: false; readonly reason: string }

/** Roles that read money settings; owner and admin also change them. */
const readers: ReadonlyArray<Role> = [...managerRoles, "finance"]

/** The review fields after `action` moved the record from `previous` (none on a first save) to `to`, at `now`. */
const reviewAfter = (
  previous: Review | undefined,
  to: ReviewStage,
  action: ReviewAction,
  now: Date
): ReviewChange => ({
  status: statusOf(to),
  rejectionReason: null,
  // Set when submitted, kept while under review (a repeated submit keeps the place in the queue) and by
  // the decision; cleared when the record needs a submit (again).
  submittedAt: to === "UNDER_REVIEW"
    ? (previous !== undefined && stageOf(previous) === "UNDER_REVIEW" ? previous.submittedAt : now)
    : to === "DRAFT" || to === "AWAITING_SUBMIT"
    ? null
    : previous?.submittedAt ?? null,
  reviewedAt: action === "approve" || action === "reject" ? now : to === "DRAFT" ? null : previous?.reviewedAt ?? null
})

/**
 * The first save inserts a draft; a later one (also when a concurrent first save won the insert) takes
 * the row FOR UPDATE and follows the `edit` move.
 */
const firstSave = (at: Date): ReviewChange => reviewAfter(undefined, "DRAFT", "edit", at)

/**
 * Business information and payout settings of a community, and their review by platform operators
 * (conventions.md "Approval"). Both follow the lifecycle of `Policy.ts`.
 */
export class SellingAccounts extends Effect.Service<SellingAccounts>()("@roda/core/SellingAccounts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SellingAccountsRepo
    const mailer = yield* Mailer
    const audit = yield* OperatorAudit
    const transaction = transactional(sql)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const requireBusiness = (communityId: CommunityId, lock = false) =>
      orNotFound(M.businessInformationNotFound)(repo.business(communityId, lock))
    const requirePayout = (communityId: CommunityId, lock = false) =>
      orNotFound(M.payoutSettingsNotFound)(repo.payout(communityId, lock))

    const business = traced("SellingAccounts.business")(function*(member: Member) {
      yield* requireRole(member, readers)
      return businessView(member.communityId, Option.getOrUndefined(yield* repo.business(member.communityId)))
    })

    const saveBusiness = traced("SellingAccounts.saveBusiness")(function*(member: Member, input: BusinessInput) {
      yield* requireRole(member, managerRoles)
      const country = input.country.toUpperCase()
      const taxIdType = country === "BR" ? brazilianTaxIdKind(input.taxId) : undefined
      if (country === "BR" && taxIdType === undefined) return yield* Effect.fail(invalidField("taxId", M.taxIdInvalid))
      const fields = {
        country,
        legalName: input.legalName,
        taxId: country === "BR" ? normalizeTaxId(input.taxId) : input.taxId,
        taxIdType: taxIdType ?? null,
        address: input.address ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null
      }
      yield* transaction(Effect.gen(function*() {
        const at = yield* now
        if (yield* repo.insertBusiness(member.communityId, fields, firstSave(at))) return
        const previous = yield* requireBusiness(member.communityId, true)
        const to = yield* nextStage(stageOf(previous), "edit")
        yield* repo.updateBusiness(member.communityId, fields, reviewAfter(previous, to, "edit", at))
      }))
      return businessView(member.communityId, yield* requireBusiness(member.communityId))
    })

    const savePayout = traced("SellingAccounts.savePayout")(function*(member: Member, input: PayoutInput) {
      yield* requireRole(member, managerRoles)
      const fields = yield* payoutFields(input)
      yield* transaction(Effect.gen(function*() {
        const at = yield* now
        if (yield* repo.insertPayout(member.communityId, fields, firstSave(at))) return
        const previous = yield* requirePayout(member.communityId, true)
        const to = yield* nextStage(stageOf(previous), "edit")
        yield* repo.updatePayout(member.communityId, fields, reviewAfter(previous, to, "edit", at))
      }))
      return payoutView(member.communityId, yield* requirePayout(member.communityId))
    })

    const payout = traced("SellingAccounts.payout")(function*(member: Member) {
      yield* requireRole(member, readers)
      return payoutView(member.communityId, Option.getOrUndefined(yield* repo.payout(member.communityId)))
    })

    const payoutStatus = traced("SellingAccounts.payoutStatus")(function*(member: Member) {
      yield* requireRole(member, readers)
      return payoutStatusView(Option.getOrUndefined(yield* repo.payout(member.communityId)))
    })

    const prerequisites = traced("SellingAccounts.prerequisites")(function*(member: Member) {
      yield* requireRole(member, readers)
      const [businessRow, payoutRow] = yield* Effect.all([
        repo.business(member.communityId),
        repo.payout(member.communityId)
      ])
      return prerequisitesOf(Option.getOrUndefined(businessRow), Option.getOrUndefined(payoutRow))
    })

    /** One review step (owner's submit, operator's approve or reject) on business information or payout settings. */
    const move = (subject: Subject, communityId: CommunityId, action: ReviewAction, reason: string | null) =>
      transaction(Effect.gen(function*() {
        const previous = subject === "business"
          ? yield* requireBusiness(communityId, true)
          : yield* requirePayout(communityId, true)
        const from = stageOf(previous)
        const to = yield* nextStage(from, action)
        if (action === "submit" && to === from) return // a repeated submit keeps its place in the queue
        const change = { ...reviewAfter(previous, to, action, yield* now), rejectionReason: reason }
        yield* repo.setReview(subject === "business" ? "business_information" : "payout_settings", communityId, change)
        if (action === "approve" || action === "reject") {
          const [owners, name] = yield* Effect.all([repo.ownerEmails(communityId), repo.communityName(communityId)])
          for (const email of owners) {
            yield* mailer.send(
              reviewMail({ subject, approved: action === "approve", name, reason, to: email, communityId })
            )
          }
        }
      }))

    const submitBusiness = traced("SellingAccounts.submitBusiness")(function*(member: Member) {
      yield* requireRole(member, managerRoles)
      yield* move("business", member.communityId, "submit", null)
      return yield* business(member)
    })

    const submitPayout = traced("SellingAccounts.submitPayout")(function*(member: Member) {
      yield* requireRole(member, managerRoles)
      yield* move("payout", member.communityId, "submit", null)
      return yield* payout(member)
    })

    /** The operator's decision on a pending submission of an existing community. */
    const decide = (account: Account, communityId: CommunityId, subject: Subject, decision: Decision) =>
      Effect.gen(function*() {
        yield* requirePlatformAdmin(account)
        if (!(yield* repo.communityExists(communityId))) return yield* Effect.fail(notFound(M.communityNotFound))
        const target = subject === "business" ? "business_information" : "payout_settings"
        // The decision and its audit row commit together (move's own transaction nests as a savepoint).
        yield* transaction(Effect.zipRight(
          move(
            subject,
            communityId,
            decision.approve ? "approve" : "reject",
            decision.approve ? null : decision.reason
          ),
          audit.record({
            actor: account,
            action: decision.approve ? `${target}.approve` : `${target}.reject`,
            target: { type: target, id: communityId },
            community: communityId,
            details: decision.approve ? {} : { reason: decision.reason }
          })
        ))
      })

    const reviewBusiness = traced("SellingAccounts.reviewBusiness")(
      function*(account: Account, communityId: CommunityId, decision: Decision) {
        yield* decide(account, communityId, "business", decision)
        return businessView(communityId, yield* requireBusiness(communityId))
      }
    )

    const reviewPayout = traced("SellingAccounts.reviewPayout")(
      function*(account: Account, communityId: CommunityId, decision: Decision) {
        yield* decide(account, communityId, "payout", decision)
        return payoutView(communityId, yield* requirePayout(communityId))
      }
    )

    /** What waits for a platform operator: submitted business information and payout settings, oldest first. */
    const reviewQueue = traced("SellingAccounts.reviewQueue")(function*(account: Account, limit = 100) {
      yield* requirePlatformAdmin(account)
      const rows = yield* repo.underReview(limit)
      return rows.map((row) => ({
        subject: row.subject,
        communityId: row.communityId,
        communityName: row.communityName,
        submittedAt: new Date(row.submittedAt).toISOString(),
        updatedAt: new Date(row.updatedAt).toISOString()
      }))
    })

    /** One community's business information and payout settings, as an operator reviews them (404 when unknown). */
    const reviewOf = traced("SellingAccounts.reviewOf")(function*(account: Account, communityId: CommunityId) {
      yield* requirePlatformAdmin(account)
      const id = communityId
      if (!(yield* repo.communityExists(id))) return yield* Effect.fail(notFound(M.communityNotFound))
      const [businessRow, payoutRow, name] = yield* Effect.all([
        repo.business(id),
        repo.payout(id),
        repo.communityName(id)
      ])
      return {
        communityId: id,
        communityName: name,
        business: businessView(id, Option.getOrUndefined(businessRow)),
        payout: payoutView(id, Option.getOrUndefined(payoutRow))
      }
    })

    return {
      reviewQueue,
      reviewOf,
      business,
      saveBusiness,
      submitBusiness,
      reviewBusiness,
      payout,
      savePayout,
      submitPayout,
      reviewPayout,
      payoutStatus,
      prerequisites
    }
  }),
  dependencies: [SellingAccountsRepo.Default]
}) {}

/** Checks the PIX key or bank account the method needs; 400 naming the field otherwise. */
const payoutFields = (input: PayoutInput) => {
  if (input.method === "PIX") {
    if (input.pixKey === undefined) return Effect.fail(invalidField("pixKey", M.pixKeyRequired))
    const parsed = parsePixKey(input.pixKey)
    if (parsed === undefined) return Effect.fail(invalidField("pixKey", M.pixKeyInvalid))
    return Effect.succeed({ method: input.method, pixKey: parsed.key, pixKeyType: parsed.type, bankAccount: null })
  }
  const account = input.bankAccount
  if (account === undefined) return Effect.fail(invalidField("bankAccount", M.bankAccountRequired))
  if (brazilianTaxIdKind(account.holderTaxId) === undefined) {
    return Effect.fail(invalidField("bankAccount.holderTaxId", M.taxIdInvalid))
  }
  return Effect.succeed({
    method: input.method,
    pixKey: null,
    pixKeyType: null,
    bankAccount: { ...account, holderTaxId: normalizeTaxId(account.holderTaxId) }
  })
}
