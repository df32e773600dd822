import { Clock, Effect, Schema } from "effect"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { DownsellRepo, type OfferFields, type OfferRow } from "./DownsellRepo"
import { catalogueMessages } from "./messages"
import { Plans } from "./Plans"
import { catalogueManagers, catalogueReaders } from "./Policy"

export interface OfferInput {
  readonly percentOff?: number | undefined
  readonly durationCycles?: number | undefined
  readonly message?: string | null | undefined
  readonly active?: boolean | undefined
}

const OfferCursor = Schema.Tuple(Uuid)

const offerView = (row: OfferRow) => ({
  id: row.id,
  communityId: row.communityId,
  subscriptionGroupId: row.groupId,
  percentOff: row.percentOff,
  durationCycles: row.durationCycles,
  message: row.message,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

const emptyToNull = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === ""
    ? null
    : value.trim()

/** Downsell offers of a plan: shown to a member who cancels (percent off for some billing cycles). */
export class DownsellOffers extends Effect.Service<DownsellOffers>()("@roda/core/DownsellOffers", {
  effect: Effect.gen(function*() {
    const repo = yield* DownsellRepo
    const plans = yield* Plans
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (communityId: CommunityId, planId: string, offerId: string) =>
      Effect.gen(function*() {
        const plan = yield* plans.find(communityId, planId)
        return yield* orNotFound(catalogueMessages.downsellOfferNotFound)(
          repo.find(communityId, plan.id, offerId.toLowerCase())
        )
      })

    const list = traced("DownsellOffers.list")(function*(member: Member, planId: string, query: PageQuery) {
      yield* requireRole(member, catalogueReaders)
      const plan = yield* plans.find(member.communityId, planId)
      const page = yield* paginate(
        query,
        OfferCursor,
        (after, limit) => repo.list(member.communityId, plan.id, { limit, after: after?.[0].toLowerCase() }),
        (row) => [row.id]
      )
      return { items: page.items.map(offerView), pagination: page.pagination }
    })

    const detail = traced("DownsellOffers.detail")(function*(member: Member, planId: string, offerId: string) {
      yield* requireRole(member, catalogueReaders)
      return offerView(yield* find(member.communityId, planId, offerId))
    })

    const create = traced("DownsellOffers.create")(
      function*(member: Member, planId: string, input: OfferInput & { percentOff: number; durationCycles: number }) {
        yield* requireRole(member, catalogueManagers)
        const plan = yield* plans.find(member.communityId, planId)
        const id = yield* ids.next
        yield* repo.insert({
          id,
          communityId: member.communityId,
          groupId: plan.id,
          percentOff: input.percentOff,
          durationCycles: input.durationCycles,
          message: emptyToNull(input.message),
          active: input.active ?? true,
          at: yield* now
        })
        return offerView(yield* find(member.communityId, plan.id, id))
      }
    )

    const update = traced("DownsellOffers.update")(
      function*(member: Member, planId: string, offerId: string, input: OfferInput) {
        yield* requireRole(member, catalogueManagers)
        const offer = yield* find(member.communityId, planId, offerId)
        const fields: OfferFields = {
          percentOff: input.percentOff ?? offer.percentOff,
          durationCycles: input.durationCycles ?? offer.durationCycles,
          message: input.message === undefined ? offer.message : emptyToNull(input.message),
          active: input.active ?? offer.active
        }
        yield* repo.update(member.communityId, offer.id, fields, yield* now)
        return offerView(yield* find(member.communityId, offer.groupId, offer.id))
      }
    )

    const remove = traced("DownsellOffers.remove")(function*(member: Member, planId: string, offerId: string) {
      yield* requireRole(member, catalogueManagers)
      const offer = yield* find(member.communityId, planId, offerId)
      yield* repo.remove(member.communityId, offer.id)
    })

    return { list, detail, create, update, remove }
  }),
  dependencies: [DownsellRepo.Default, Plans.Default]
}) {}
