import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, forbidden, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { SellingStatus } from "../../money/accounts/SellingStatus"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import type { Viewer } from "../../structure/Access"
import { catalogueMessages } from "./messages"
import {
  catalogueManagers,
  catalogueReaders,
  checkProductMove,
  isMonthlySubscription,
  type ProductStatus,
  type ProductType
} from "./Policy"
import { checkProductFields, editedProductFields, newProductFields, type ProductInput } from "./productRules"
import { type ProductRow, ProductsRepo } from "./ProductsRepo"
import { productView } from "./view"

export interface NewProductInput extends ProductInput {
  readonly type: ProductType
  readonly title: string
  readonly price: number
}

export interface ProductChangesInput extends ProductInput {
  readonly type?: ProductType | undefined
  readonly status?: ProductStatus | undefined
}

export interface ProductQuery extends PageQuery {
  readonly type?: ProductType | undefined
  readonly status?: ProductStatus | undefined
}

const ProductCursor = Schema.Tuple(Uuid)

/** Products: creation in DRAFT, edits, the publish rules of spec §3, unpublish and soft delete. */
export class Products extends Effect.Service<Products>()("@roda/core/Products", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ProductsRepo
    const selling = yield* SellingStatus
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const missing = () => Effect.fail(notFound(Messages.productNotFound))

    /** Spec §3: approved business information, and the product priced in the approved country's currency. */
    const checkSellable = (communityId: CommunityId, currency: string) =>
      Effect.gen(function*() {
        const approved = yield* selling.approvedBusiness(communityId)
        if (Option.isNone(approved)) {
          return yield* Effect.fail(forbidden(catalogueMessages.publishNeedsApprovedBusiness))
        }
        if (approved.value.currency !== currency) {
          return yield* Effect.fail(
            invalidField("currency", catalogueMessages.productCurrencyMismatch(currency, approved.value.currency))
          )
        }
      })

    const found = (communityId: CommunityId, id: string) =>
      Effect.flatMap(
        repo.find(communityId, id.toLowerCase()),
        Option.match({ onNone: missing, onSome: Effect.succeed })
      )

    const locked = (communityId: CommunityId, id: string) =>
      Effect.flatMap(
        repo.lock(communityId, id.toLowerCase()),
        Option.match({ onNone: missing, onSome: Effect.succeed })
      )

    const create = traced("Products.create")(function*(member: Member, input: NewProductInput) {
      yield* requireRole(member, catalogueManagers)
      const currency = input.currency ?? (yield* selling.defaultCurrency(member.communityId))
      const fields = newProductFields(input, currency)
      yield* checkProductFields(input.type, fields)
      const id = yield* ids.next
      yield* repo.insert({ ...fields, id, communityId: member.communityId, type: input.type, at: yield* now })
      return productView(yield* found(member.communityId, id))
    })

    const detail = traced("Products.detail")(function*(viewer: Viewer, id: string) {
      const product = yield* found(viewer.communityId, id)
      const reader = Option.exists(viewer.member, (member) => catalogueReaders.includes(member.role))
      if (!reader && product.status !== "ACTIVE") return yield* missing()
      return productView(product)
    })

    const list = traced("Products.list")(function*(member: Member, query: ProductQuery) {
      yield* requireRole(member, catalogueReaders)
      const page = yield* paginate(
        query,
        ProductCursor,
        (after, limit) =>
          repo.list(member.communityId, {
            limit,
            type: query.type,
            status: query.status,
            after: after?.[0].toLowerCase()
          }),
        (row) => [row.id]
      )
      return { items: page.items.map(productView), pagination: page.pagination }
    })

    /** The status columns after a move (publish time set on ACTIVE, cleared on DRAFT). */
    const statusAfter = (product: ProductRow, to: ProductStatus, at: Date) =>
      to === product.status
        ? { status: to, publishedAt: product.publishedAt }
        : { status: to, publishedAt: to === "ACTIVE" ? at : null }

    const update = traced("Products.update")(function*(member: Member, id: string, input: ProductChangesInput) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const productId = yield* transactional(sql)(Effect.gen(function*() {
        const product = yield* locked(communityId, id)
        if (input.type !== undefined && input.type !== product.type) {
          return yield* Effect.fail(invalidField("type", catalogueMessages.productTypeFixed))
        }
        const fields = editedProductFields(product, input)
        yield* checkProductFields(product.type, fields)
        if (fields.billingInterval !== product.billingInterval && !isMonthlySubscription({ ...product, ...fields })) {
          // A plan add-on stays a monthly SUBSCRIPTION product (spec §2).
          const plan = yield* repo.addOnOf(communityId, product.id)
          if (Option.isSome(plan)) {
            return yield* Effect.fail(
              invalidField("billingInterval", catalogueMessages.addOnIntervalFixed(plan.value.name))
            )
          }
        }
        const to = input.status ?? product.status
        if (to !== product.status) yield* checkProductMove(product.status, to)
        const publishing = to === "ACTIVE" && product.status !== "ACTIVE"
        if (publishing || (to === "ACTIVE" && fields.currency !== product.currency)) {
          yield* checkSellable(communityId, fields.currency)
        }
        const at = yield* now
        yield* repo.update(communityId, product.id, fields, statusAfter(product, to, at), at)
        return product.id
      }))
      return productView(yield* found(communityId, productId))
    })

    const publish = traced("Products.publish")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const productId = yield* transactional(sql)(Effect.gen(function*() {
        const product = yield* locked(communityId, id)
        yield* checkProductMove(product.status, "ACTIVE")
        yield* checkSellable(communityId, product.currency)
        const at = yield* now
        yield* repo.update(communityId, product.id, product, statusAfter(product, "ACTIVE", at), at)
        return product.id
      }))
      return productView(yield* found(communityId, productId))
    })

    const remove = traced("Products.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      yield* transactional(sql)(Effect.gen(function*() {
        const product = yield* locked(communityId, id)
        const plan = yield* repo.optionOf(communityId, product.id)
        if (Option.isSome(plan)) {
          return yield* Effect.fail(conflict(catalogueMessages.productInUseByPlan(plan.value.name)))
        }
        const space = yield* repo.grantingSpace(communityId, product.id)
        if (Option.isSome(space)) {
          return yield* Effect.fail(conflict(catalogueMessages.productInUseBySpace(space.value.title)))
        }
        yield* repo.dropAddOn(communityId, product.id)
        yield* repo.softDelete(communityId, product.id, yield* now)
      }))
    })

    return { create, detail, list, update, publish, remove }
  }),
  dependencies: [ProductsRepo.Default]
}) {}
