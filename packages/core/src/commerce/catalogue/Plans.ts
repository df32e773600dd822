import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { CursorPart, type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { foreignKeyViolation } from "../../sql/errors"
import { transactional } from "../../sql/transaction"
import { catalogueMessages } from "./messages"
import { type LinkRow, type PlanRow, PlansRepo } from "./PlansRepo"
import { catalogueManagers, catalogueReaders, isMonthlySubscription } from "./Policy"
import { ProductsRepo } from "./ProductsRepo"
import { productView } from "./view"

export interface NewPlanInput {
  readonly name: string
  readonly description?: string | null | undefined
  readonly productIds: ReadonlyArray<string>
  readonly addOnProductIds?: ReadonlyArray<string> | undefined
}

export interface PlanChangesInput {
  readonly name?: string | undefined
  readonly description?: string | null | undefined
  readonly productIds?: ReadonlyArray<string> | undefined
  readonly addOnProductIds?: ReadonlyArray<string> | undefined
}

const PlanCursor = Schema.Tuple(CursorPart.int4, Uuid)

const planView = (plan: PlanRow, links: ReadonlyArray<LinkRow>) => ({
  id: plan.id,
  communityId: plan.communityId,
  name: plan.name,
  description: plan.description,
  position: plan.position,
  productIds: links.filter((link) => link.groupId === plan.id && link.kind === "option").map((link) => link.productId),
  addOnProductIds: links.filter((link) => link.groupId === plan.id && link.kind === "add_on").map((link) =>
    link.productId
  ),
  createdAt: plan.createdAt.toISOString(),
  updatedAt: plan.updatedAt.toISOString()
})

const lower = (ids: ReadonlyArray<string>) => ids.map((id) => id.toLowerCase())

const noRepeats = (param: string, ids: ReadonlyArray<string>) =>
  new Set(ids).size === ids.length
    ? Effect.void
    : Effect.fail(invalidField(param, catalogueMessages.duplicateIds(param)))

/** Plans (subscription groups): billing options and add-ons (spec §2 relations 3 and 4), order, removal. */
export class Plans extends Effect.Service<Plans>()("@roda/core/Plans", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* PlansRepo
    const products = yield* ProductsRepo
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (communityId: CommunityId, id: string) =>
      orNotFound(catalogueMessages.planNotFound)(repo.find(communityId, id.toLowerCase()))

    const view = (plan: PlanRow) =>
      Effect.map(repo.links(plan.communityId, [plan.id]), (links) => planView(plan, links))

    /**
     * Spec §2 relations 3 and 4, checked with the products locked: options are live SUBSCRIPTION
     * products; add-ons are live monthly SUBSCRIPTION products ("monthly product ids that are not plan
     * options"); no product is an option in one place and an add-on in another. A billing option may be
     * an option of several plans (the spec does not forbid it).
     */
    const checkLinks = (
      communityId: CommunityId,
      planId: string | null,
      options: ReadonlyArray<string>,
      addOns: ReadonlyArray<string>
    ) =>
      Effect.gen(function*() {
        yield* noRepeats("productIds", options)
        yield* noRepeats("addOnProductIds", addOns)
        const rows = yield* products.lockMany(communityId, [...new Set([...options, ...addOns])])
        const live = new Map(rows.map((row) => [row.id, row]))
        if (options.some((id) => live.get(id)?.type !== "SUBSCRIPTION")) {
          return yield* Effect.fail(invalidField("productIds", Messages.productNotFound))
        }
        if (addOns.some((id) => !live.has(id))) {
          return yield* Effect.fail(invalidField("addOnProductIds", catalogueMessages.addOnUnknown))
        }
        if (addOns.some((id) => options.includes(id))) {
          return yield* Effect.fail(invalidField("addOnProductIds", catalogueMessages.addOnIsBillingOption))
        }
        if (addOns.some((id) => !isMonthlySubscription(live.get(id)!))) {
          return yield* Effect.fail(invalidField("addOnProductIds", catalogueMessages.addOnNotMonthly))
        }
        const foreign = yield* repo.foreignLinks(communityId, [...options, ...addOns], planId)
        if (foreign.some((link) => link.kind === "option" && addOns.includes(link.productId))) {
          return yield* Effect.fail(invalidField("addOnProductIds", catalogueMessages.addOnIsBillingOption))
        }
        if (foreign.some((link) => link.kind === "add_on" && options.includes(link.productId))) {
          return yield* Effect.fail(invalidField("productIds", catalogueMessages.addOnIsBillingOption))
        }
      })

    const list = traced("Plans.list")(function*(member: Member, query: PageQuery) {
      yield* requireRole(member, catalogueReaders)
      const page = yield* paginate(
        query,
        PlanCursor,
        (after, limit) =>
          repo.list(member.communityId, {
            limit,
            after: after === undefined ? undefined : [after[0], after[1].toLowerCase()]
          }),
        (row) => [row.position, row.id]
      )
      const links = yield* repo.links(member.communityId, page.items.map((row) => row.id))
      return { items: page.items.map((row) => planView(row, links)), pagination: page.pagination }
    })

    const detail = traced("Plans.detail")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueReaders)
      return yield* view(yield* find(member.communityId, id))
    })

    const create = traced("Plans.create")(function*(member: Member, input: NewPlanInput) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const options = lower(input.productIds)
      const addOns = lower(input.addOnProductIds ?? [])
      const id = yield* ids.next
      yield* transactional(sql)(Effect.gen(function*() {
        yield* repo.lockCommunity(communityId)
        yield* checkLinks(communityId, null, options, addOns)
        const position = yield* repo.count(communityId)
        const at = yield* now
        yield* repo.insert({ id, communityId, name: input.name, description: input.description ?? null, position, at })
        yield* repo.replaceLinks(communityId, id, "option", options)
        yield* repo.replaceLinks(communityId, id, "add_on", addOns)
      }))
      return yield* view(yield* find(communityId, id))
    })

    const update = traced("Plans.update")(function*(member: Member, id: string, input: PlanChangesInput) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const plan = yield* transactional(sql)(Effect.gen(function*() {
        yield* repo.lockCommunity(communityId)
        const plan = yield* find(communityId, id)
        const links = yield* repo.links(communityId, [plan.id])
        const current = planView(plan, links)
        const options = input.productIds === undefined ? current.productIds : lower(input.productIds)
        const addOns = input.addOnProductIds === undefined ? current.addOnProductIds : lower(input.addOnProductIds)
        if (input.productIds !== undefined || input.addOnProductIds !== undefined) {
          yield* checkLinks(communityId, plan.id, options, addOns)
        }
        yield* repo.update(communityId, plan.id, {
          name: input.name ?? plan.name,
          description: input.description === undefined ? plan.description : input.description
        }, yield* now)
        if (input.productIds !== undefined) yield* repo.replaceLinks(communityId, plan.id, "option", options)
        if (input.addOnProductIds !== undefined) yield* repo.replaceLinks(communityId, plan.id, "add_on", addOns)
        return plan
      }))
      return yield* view(yield* find(communityId, plan.id))
    })

    const remove = traced("Plans.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      yield* transactional(sql)(Effect.gen(function*() {
        yield* repo.lockCommunity(communityId)
        const plan = yield* find(communityId, id)
        const space = yield* repo.grantingSpace(communityId, plan.id)
        if (Option.isSome(space)) {
          return yield* Effect.fail(conflict(catalogueMessages.planInUseBySpace(space.value.title)))
        }
        const tier = yield* repo.showingTier(communityId, plan.id)
        if (Option.isSome(tier)) return yield* Effect.fail(conflict(catalogueMessages.planInUseByTier(tier.value.name)))
        // Subscriptions and sales (other parts' tables) may refer to the plan: never removed under them.
        yield* sql.withTransaction(repo.remove(communityId, plan.id)).pipe(
          Effect.catchAll((error) =>
            foreignKeyViolation(error) ? Effect.fail(conflict(catalogueMessages.planInUse)) : Effect.die(error)
          )
        )
        yield* repo.compact(communityId)
      }))
    })

    const reorder = traced("Plans.reorder")(function*(member: Member, order: ReadonlyArray<string>) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const wanted = lower(order)
      yield* transactional(sql)(Effect.gen(function*() {
        yield* repo.lockCommunity(communityId)
        const current = yield* repo.ids(communityId)
        const set = new Set(wanted)
        if (set.size !== wanted.length || wanted.length !== current.length || current.some((id) => !set.has(id))) {
          return yield* Effect.fail(invalidField("ids", catalogueMessages.plansReorderMismatch))
        }
        if (wanted.length > 0) yield* repo.setPositions(communityId, wanted, yield* now)
      }))
      const rows = yield* repo.list(communityId, { limit: Math.max(wanted.length, 1) })
      const plans = rows.slice(0, wanted.length)
      const links = yield* repo.links(communityId, plans.map((row) => row.id))
      return plans.map((row) => planView(row, links))
    })

    const planProducts = traced("Plans.products")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueReaders)
      const plan = yield* find(member.communityId, id)
      const rows = yield* repo.products(member.communityId, plan.id)
      return rows.map(({ kind, linkPosition, ...row }) => ({ ...productView(row), kind, position: linkPosition }))
    })

    return { list, detail, create, update, remove, reorder, products: planProducts, find }
  }),
  dependencies: [PlansRepo.Default, ProductsRepo.Default]
}) {}
