import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { OperatorAudit } from "../../audit/OperatorAudit"
import { invalidField, notFound } from "../../domain/AppError"
import type { Account, Member } from "../../domain/Caller"
import type { CommunityId } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PaymentMethod, paymentMethods } from "../../domain/Money"
import { requirePlatformAdmin, requireRole } from "../../domain/Policy"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { SellingStatus } from "../accounts/SellingStatus"
import { type FeeOverrideRow, FeesRepo } from "./FeesRepo"
import { ledgerMessages } from "./messages"
import { Pricing } from "./Pricing"
import {
  DEFAULT_INTEREST_BPS,
  feesInForce,
  MAX_INSTALLMENTS,
  maxInstallmentsOf,
  releaseAfterDays,
  saleAmounts
} from "./salePricing"
import { moneyReaders } from "./terms"

export interface SimulationInput {
  readonly amount: number
  readonly paymentMethod: PaymentMethod
  readonly installments?: number | undefined
  readonly currency?: string | undefined
}

export interface FeeOverrideInput {
  readonly percentBps: number
  readonly fixed: number
  readonly interestRateBps?: number | null | undefined
}

const methodView = (method: PaymentMethod, override: FeeOverrideRow | undefined) => {
  const fees = feesInForce(method, override)
  return {
    paymentMethod: method,
    percentBps: fees.percentBps,
    fixed: fees.fixed,
    maxInstallments: maxInstallmentsOf(method),
    interestRateBps: fees.interestRateBps,
    releaseAfterDays: releaseAfterDays[method],
    overridden: override !== undefined,
    updatedAt: override === undefined ? null : override.updatedAt.toISOString()
  }
}

/** Fees in force, sale simulations, and the platform operator's per-community overrides. */
export class Fees extends Effect.Service<Fees>()("@roda/core/Fees", {
  effect: Effect.gen(function*() {
    const repo = yield* FeesRepo
    const pricing = yield* Pricing
    const audit = yield* OperatorAudit
    const transaction = transactional(yield* SqlClient.SqlClient)
    // The community currency comes from money/accounts; an embedding without it sells in BRL.
    const sellingStatus = yield* Effect.serviceOption(SellingStatus)
    const currencyOf = (communityId: CommunityId) =>
      Option.match(sellingStatus, {
        onNone: () => Effect.succeed("BRL"),
        onSome: (status) => status.defaultCurrency(communityId)
      })

    const inForce = (communityId: CommunityId) =>
      Effect.map(
        repo.overrides(communityId),
        (rows) => paymentMethods.map((method) => methodView(method, rows.find((row) => row.paymentMethod === method)))
      )

    const feesOf = (communityId: CommunityId) =>
      Effect.gen(function*() {
        const methods = yield* inForce(communityId)
        const card = methods.find((method) => method.paymentMethod === "CREDIT_CARD")
        return {
          communityId,
          currency: yield* currencyOf(communityId),
          maxInstallments: MAX_INSTALLMENTS,
          interestRateBps: card?.interestRateBps ?? DEFAULT_INTEREST_BPS,
          methods
        }
      })

    const list = traced("Fees.list")(function*(member: Member) {
      yield* requireRole(member, moneyReaders)
      return yield* feesOf(member.communityId)
    })

    /** The sale through `Pricing.price` (what checkout charges), plus every installment option of the method. */
    const simulate = traced("Fees.simulate")(function*(member: Member, input: SimulationInput) {
      yield* requireRole(member, moneyReaders)
      const sale = {
        communityId: member.communityId,
        amount: input.amount,
        currency: input.currency ?? (yield* currencyOf(member.communityId)),
        paymentMethod: input.paymentMethod,
        installments: input.installments ?? 1
      }
      const amounts = yield* pricing.price(sale)
      const fees = feesInForce(sale.paymentMethod, yield* repo.override(member.communityId, sale.paymentMethod))
      const options = []
      for (let installments = 1; installments <= maxInstallmentsOf(sale.paymentMethod); installments++) {
        const option = saleAmounts({ ...sale, installments }, fees)
        if (option._tag === "Right") {
          const { installmentAmount, interest, interestRateBps, total } = option.right
          options.push({ installments, installmentAmount, total, interest, interestRateBps })
        }
      }
      return { ...amounts, gross: amounts.amount, releaseAfterDays: releaseAfterDays[sale.paymentMethod], options }
    })

    const existingCommunity = (communityId: CommunityId) =>
      Effect.flatMap(
        repo.communityExists(communityId),
        (found) => found ? Effect.void : Effect.fail(notFound(Messages.communityNotFound))
      )

    const setOverride = traced("Fees.setOverride")(function*(
      account: Account,
      communityId: CommunityId,
      method: PaymentMethod,
      input: FeeOverrideInput
    ) {
      yield* requirePlatformAdmin(account)
      if (method !== "CREDIT_CARD" && input.interestRateBps != null) {
        return yield* Effect.fail(invalidField("interestRateBps", ledgerMessages.interestOnlyCard))
      }
      yield* existingCommunity(communityId)
      const at = new Date(yield* Clock.currentTimeMillis)
      const fees = {
        percentBps: input.percentBps,
        fixed: input.fixed,
        interestRateBps: input.interestRateBps ?? null
      }
      yield* transaction(Effect.zipRight(
        repo.upsert({ communityId, paymentMethod: method, ...fees, updatedBy: account.id, at }),
        audit.record({
          actor: account,
          action: "fee_override.set",
          target: { type: "fee_override", id: method },
          community: communityId,
          details: fees
        })
      ))
      return { communityId, ...methodView(method, yield* repo.override(communityId, method)) }
    })

    const removeOverride = traced("Fees.removeOverride")(function*(
      account: Account,
      communityId: CommunityId,
      method: PaymentMethod
    ) {
      yield* requirePlatformAdmin(account)
      yield* existingCommunity(communityId)
      yield* transaction(Effect.zipRight(
        repo.remove(communityId, method),
        audit.record({
          actor: account,
          action: "fee_override.remove",
          target: { type: "fee_override", id: method },
          community: communityId
        })
      ))
      return { communityId, ...methodView(method, undefined) }
    })

    /** The fees in force of a community as a platform operator sees them (overrides marked `overridden`). */
    const operatorList = traced("Fees.operatorList")(function*(account: Account, communityId: CommunityId) {
      yield* requirePlatformAdmin(account)
      yield* existingCommunity(communityId)
      return yield* feesOf(communityId)
    })

    return { list, simulate, setOverride, removeOverride, operatorList }
  }),
  dependencies: [FeesRepo.Default]
}) {}
