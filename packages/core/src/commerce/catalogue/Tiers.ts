import { Clock, Effect, Option, Schema } from "effect"
import { invalidField } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { orNotFound } from "../../domain/found"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { Ids } from "../../platform/Ids"
import { traced } from "../../platform/traced"
import { foreignKeyViolation } from "../../sql/errors"
import { catalogueMessages } from "./messages"
import { PlansRepo } from "./PlansRepo"
import { catalogueManagers } from "./Policy"
import { type TierFields, type TierOptionRow, type TierRow, TiersRepo } from "./TiersRepo"

export interface TierInput {
  readonly name?: string | undefined
  readonly description?: string | null | undefined
  readonly benefits?: ReadonlyArray<string> | undefined
  readonly highlight?: boolean | undefined
  readonly position?: number | undefined
  readonly subscriptionGroupId?: string | undefined
}

const TierCursor = Schema.Tuple(CursorPart.int4, Uuid)

const tierView = (row: TierRow, options: ReadonlyArray<TierOptionRow>) => ({
  id: row.id,
  communityId: row.communityId,
  subscriptionGroupId: row.subscriptionGroupId,
  name: row.name,
  description: row.description,
  benefits: row.benefits,
  highlight: row.highlight,
  position: row.position,
  plan: { id: row.subscriptionGroupId, name: row.planName, description: row.planDescription },
  options: options.filter((option) => option.groupId === row.subscriptionGroupId).map(({ groupId: _, ...option }) =>
    option
  ),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

/** The public pricing page: tiers in order, each selling one plan through its active billing options. */
export class Tiers extends Effect.Service<Tiers>()("@roda/core/Tiers", {
  effect: Effect.gen(function*() {
    const repo = yield* TiersRepo
    const plans = yield* PlansRepo
    const ids = yield* Ids
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const find = (communityId: CommunityId, id: string) =>
      orNotFound(catalogueMessages.tierNotFound)(repo.find(communityId, id.toLowerCase()))

    const view = (row: TierRow) =>
      Effect.map(repo.activeOptions(row.communityId, [row.subscriptionGroupId]), (options) => tierView(row, options))

    /** The plan a tier points at must be a plan of the community (400, param `subscriptionGroupId`). */
    const planOf = (communityId: CommunityId, id: string) =>
      Effect.flatMap(
        plans.find(communityId, id.toLowerCase()),
        Option.match({
          onNone: () => Effect.fail(invalidField("subscriptionGroupId", catalogueMessages.planUnknown)),
          onSome: (plan) => Effect.succeed(plan.id)
        })
      )

    /** A plan removed between the check and the write is an unknown plan too. */
    const planGone = <A, E>(write: Effect.Effect<A, E>) =>
      write.pipe(
        Effect.catchAll((error) =>
          foreignKeyViolation(error)
            ? Effect.fail(invalidField("subscriptionGroupId", catalogueMessages.planUnknown))
            : Effect.die(error)
        )
      )

    const list = traced("Tiers.list")(function*(communityId: CommunityId, query: PageQuery) {
      const page = yield* paginate(
        query,
        TierCursor,
        (after, limit) =>
          repo.list(communityId, {
            limit,
            after: after === undefined ? undefined : [after[0], after[1].toLowerCase()]
          }),
        (row) => [row.position, row.id]
      )
      const options = yield* repo.activeOptions(communityId, page.items.map((row) => row.subscriptionGroupId))
      return { items: page.items.map((row) => tierView(row, options)), pagination: page.pagination }
    })

    const detail = traced("Tiers.detail")(function*(communityId: CommunityId, id: string) {
      return yield* view(yield* find(communityId, id))
    })

    const create = traced("Tiers.create")(
      function*(member: Member, input: TierInput & { name: string; subscriptionGroupId: string }) {
        yield* requireRole(member, catalogueManagers)
        const communityId = member.communityId
        const fields: TierFields = {
          name: input.name,
          description: input.description ?? null,
          benefits: input.benefits ?? [],
          highlight: input.highlight ?? false,
          position: input.position ?? (yield* repo.nextPosition(communityId)),
          subscriptionGroupId: yield* planOf(communityId, input.subscriptionGroupId)
        }
        const id = yield* ids.next
        yield* planGone(repo.insert({ ...fields, id, communityId, at: yield* now }))
        return yield* view(yield* find(communityId, id))
      }
    )

    const update = traced("Tiers.update")(function*(member: Member, id: string, input: TierInput) {
      yield* requireRole(member, catalogueManagers)
      const communityId = member.communityId
      const tier = yield* find(communityId, id)
      const fields: TierFields = {
        name: input.name ?? tier.name,
        description: input.description === undefined ? tier.description : input.description,
        benefits: input.benefits ?? tier.benefits,
        highlight: input.highlight ?? tier.highlight,
        position: input.position ?? tier.position,
        subscriptionGroupId: input.subscriptionGroupId === undefined
          ? tier.subscriptionGroupId
          : yield* planOf(communityId, input.subscriptionGroupId)
      }
      yield* planGone(repo.update(communityId, tier.id, fields, yield* now))
      return yield* view(yield* find(communityId, tier.id))
    })

    const remove = traced("Tiers.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, catalogueManagers)
      const tier = yield* find(member.communityId, id)
      yield* repo.remove(member.communityId, tier.id)
    })

    return { list, detail, create, update, remove }
  }),
  dependencies: [TiersRepo.Default, PlansRepo.Default]
}) {}
