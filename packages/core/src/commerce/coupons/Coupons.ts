import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, fieldError, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type CommunityId, isUuid, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { SellingStatus } from "../../money/accounts/SellingStatus"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { uniqueViolation } from "../../sql/errors"
import { transactional } from "../../sql/transaction"
import { normaliseCode } from "./code"
import { discountOn, refusalOf, unknownCode } from "./discount"
import { couponMessages } from "./messages"
import {
  checkStatusMove,
  couponManagers,
  couponReaders,
  type CouponStatus,
  type Duration,
  effectiveStatus,
  type RedemptionStatus
} from "./Policy"
import { RedemptionRepo } from "./RedemptionRepo"
import { type CouponFields, CouponsRepo } from "./Repo"
import { checkEditAfterUse, checkExpiry, checkTerms, mergeTerms, type TermsInput } from "./terms"
import { couponView, redemptionView } from "./view"

export interface CouponChangesInput extends TermsInput {
  readonly code?: string | undefined
  readonly name?: string | null | undefined
  readonly applicableProducts?: ReadonlyArray<string> | null | undefined
  readonly maxRedemptions?: number | null | undefined
  readonly expiresAt?: string | null | undefined
}

export interface NewCouponInput extends CouponChangesInput {
  readonly code: string
}

export interface CouponQuery extends PageQuery {
  readonly status?: CouponStatus | undefined
}

export interface UsageQuery extends PageQuery {
  readonly status?: RedemptionStatus | undefined
}

export interface ValidationInput {
  readonly code: string
  readonly productId: string
  readonly amount?: number | undefined
}

const IdCursor = Schema.Tuple(Uuid)
const blankTerms = {
  percentOff: null,
  amountOff: null,
  currency: null,
  duration: "once" as Duration,
  durationMonths: null
}
const codeTaken = (code: string) => {
  const message = couponMessages.codeTaken(code)
  return conflict(message, [fieldError("code", message)])
}

/** Coupons: the team's catalogue of discount codes, their status moves and usage, and the buyer's preview. */
export class Coupons extends Effect.Service<Coupons>()("@roda/core/Coupons", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CouponsRepo
    const redemptions = yield* RedemptionRepo
    const ids = yield* Ids
    // The community currency comes from money/accounts; an embedding without it sells in BRL.
    const sellingStatus = yield* Effect.serviceOption(SellingStatus)
    const currencyOf = (communityId: CommunityId) =>
      Option.match(sellingStatus, {
        onNone: () => Effect.succeed("BRL"),
        onSome: (status) => status.defaultCurrency(communityId)
      })
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (communityId: CommunityId, id: string) =>
      orNotFound(couponMessages.couponNotFound)(repo.find(communityId, id.toLowerCase()))

    const viewOf = (communityId: CommunityId, id: string) => Effect.zipWith(find(communityId, id), now, couponView)

    /** Product ids, deduplicated, each a product of the community that is not deleted (400 otherwise). */
    const applicableProducts = (communityId: CommunityId, given: ReadonlyArray<string> | null) =>
      Effect.gen(function*() {
        const wanted = [...new Set((given ?? []).map((id) => id.toLowerCase()))]
        const existing = new Set(yield* repo.existingProducts(communityId, wanted))
        if (wanted.some((id) => !existing.has(id))) {
          return yield* Effect.fail(invalidField("applicableProducts", Messages.productNotFound))
        }
        return wanted
      })

    /** Writes the coupon (insert or update) and its products; a taken code is 409. */
    const save = (write: Effect.Effect<void, unknown>, code: string) =>
      sql.withTransaction(write).pipe(
        Effect.catchAll((error) =>
          uniqueViolation(error) === undefined ? Effect.die(error) : Effect.fail(codeTaken(code))
        )
      )

    const list = traced("Coupons.list")(function*(member: Member, query: CouponQuery) {
      yield* requireRole(member, couponReaders)
      const at = yield* now
      const page = yield* paginate(
        query,
        IdCursor,
        (after, limit) => repo.list(member.communityId, { limit, after: after?.[0], status: query.status, now: at }),
        (row) => [row.id]
      )
      return { items: page.items.map((row) => couponView(row, at)), pagination: page.pagination }
    })

    const create = traced("Coupons.create")(function*(member: Member, input: NewCouponInput) {
      yield* requireRole(member, couponManagers)
      const terms = mergeTerms(blankTerms, input, yield* currencyOf(member.communityId))
      yield* checkTerms(terms)
      const at = yield* now
      const expiresAt = input.expiresAt == null ? null : new Date(input.expiresAt)
      yield* checkExpiry(expiresAt, at)
      const products = yield* applicableProducts(member.communityId, input.applicableProducts ?? null)
      const id = yield* ids.next
      const code = normaliseCode(input.code)
      const fields: CouponFields = {
        ...terms,
        code,
        name: input.name || null,
        maxRedemptions: input.maxRedemptions ?? null,
        expiresAt
      }
      yield* save(
        Effect.zipRight(
          repo.insert({
            ...fields,
            id,
            communityId: member.communityId,
            status: "active",
            createdAt: at,
            updatedAt: at
          }),
          repo.setProducts(member.communityId, id, products)
        ),
        code
      )
      return yield* viewOf(member.communityId, id)
    })

    /** By id when `idOrCode` is a UUID, else by code (case-insensitive). */
    const detail = traced("Coupons.detail")(function*(member: Member, idOrCode: string) {
      yield* requireRole(member, couponReaders)
      const key = idOrCode.trim()
      const found = yield* orNotFound(couponMessages.couponNotFound)(
        isUuid(key)
          ? repo.find(member.communityId, key.toLowerCase())
          : repo.findByCode(member.communityId, normaliseCode(key))
      )
      return couponView(found, yield* now)
    })

    const update = traced("Coupons.update")(function*(member: Member, id: string, input: CouponChangesInput) {
      yield* requireRole(member, couponManagers)
      const communityId = member.communityId
      yield* find(communityId, id)
      const defaultCurrency = yield* currencyOf(communityId)
      const couponId = yield* transactional(sql)(Effect.gen(function*() {
        if (!(yield* repo.lock(communityId, id.toLowerCase()))) {
          return yield* Effect.fail(notFound(couponMessages.couponNotFound))
        }
        const current = yield* find(communityId, id)
        const at = yield* now
        if (effectiveStatus(current, at) === "expired") {
          return yield* Effect.fail(conflict(couponMessages.expiredIsFinal, [
            fieldError("status", couponMessages.expiredIsFinal)
          ]))
        }
        const terms = mergeTerms(current, input, current.currency ?? defaultCurrency)
        yield* checkTerms(terms)
        const expiresAt = input.expiresAt === undefined
          ? current.expiresAt
          : input.expiresAt === null
          ? null
          : new Date(input.expiresAt)
        if (input.expiresAt !== undefined) yield* checkExpiry(expiresAt, at)
        const next: CouponFields = {
          ...terms,
          code: input.code === undefined ? current.code : normaliseCode(input.code),
          name: input.name === undefined ? current.name : input.name || null,
          maxRedemptions: input.maxRedemptions === undefined ? current.maxRedemptions : input.maxRedemptions,
          expiresAt
        }
        const sent = Object.keys(input).filter((key) => input[key as keyof CouponChangesInput] !== undefined)
        yield* checkEditAfterUse(current, next, sent)
        const products = input.applicableProducts === undefined
          ? undefined
          : yield* applicableProducts(communityId, input.applicableProducts)
        yield* save(
          Effect.zipRight(
            repo.update(communityId, current.id, next, at),
            products === undefined ? Effect.void : repo.setProducts(communityId, current.id, products)
          ),
          next.code
        )
        return current.id
      }))
      return yield* viewOf(communityId, couponId)
    })

    /**
     * Soft delete: the coupon leaves lists and lookups and its code is free again; its usage rows
     * stay, and a charge that already holds a use is still counted when paid.
     */
    const remove = traced("Coupons.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, couponManagers)
      const coupon = yield* find(member.communityId, id)
      yield* repo.softDelete(member.communityId, coupon.id, yield* now)
    })

    const changeStatus = traced("Coupons.changeStatus")(function*(member: Member, id: string, to: CouponStatus) {
      yield* requireRole(member, couponManagers)
      const communityId = member.communityId
      yield* find(communityId, id)
      yield* transactional(sql)(Effect.gen(function*() {
        if (!(yield* repo.lock(communityId, id.toLowerCase()))) {
          return yield* Effect.fail(notFound(couponMessages.couponNotFound))
        }
        const current = yield* find(communityId, id)
        const at = yield* now
        const status = yield* checkStatusMove(effectiveStatus(current, at), to)
        yield* repo.setStatus(communityId, current.id, status, at)
      }))
      return yield* viewOf(communityId, id)
    })

    const usage = traced("Coupons.usage")(function*(member: Member, id: string, query: UsageQuery) {
      yield* requireRole(member, couponReaders)
      const coupon = yield* find(member.communityId, id)
      const page = yield* paginate(
        query,
        IdCursor,
        (after, limit) =>
          redemptions.usage(member.communityId, coupon.id, { limit, after: after?.[0], status: query.status }),
        (row) => [row.id]
      )
      return { items: page.items.map(redemptionView), pagination: page.pagination }
    })

    /**
     * The discount `code` gives on a product (at its price, or at `amount`), or why it does not
     * apply; writes nothing. Any member may ask: it is what a buyer checks before paying.
     */
    const validate = traced("Coupons.validate")(function*(member: Member, input: ValidationInput) {
      const product = yield* Effect.flatMap(
        repo.product(member.communityId, input.productId.toLowerCase()),
        Option.match({
          onNone: () => Effect.fail(invalidField("productId", Messages.productNotFound)),
          onSome: Effect.succeed
        })
      )
      const amount = input.amount ?? product.price
      const code = normaliseCode(input.code)
      const sale = { productId: product.id, amount, currency: product.currency }
      const found = yield* repo.findByCode(member.communityId, code)
      const coupon = Option.getOrUndefined(found)
      const refusal = coupon === undefined ? unknownCode(code) : refusalOf(coupon, sale, yield* now)
      const discount = coupon === undefined || refusal !== undefined ? 0 : discountOn(coupon, amount)
      return {
        valid: refusal === undefined,
        reason: refusal?.reason ?? null,
        message: refusal?.text ?? null,
        code,
        ...sale,
        discount,
        amountAfter: amount - discount,
        percentOff: coupon?.percentOff ?? null,
        amountOff: coupon?.amountOff ?? null,
        couponCurrency: coupon?.currency ?? null,
        duration: coupon?.duration ?? null,
        durationMonths: coupon?.durationMonths ?? null
      }
    })

    return { list, create, detail, update, remove, changeStatus, usage, validate }
  }),
  dependencies: [CouponsRepo.Default, RedemptionRepo.Default]
}) {}
