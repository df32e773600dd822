import { Effect, Option, Schema } from "effect"
import { conflict, fieldError, notFound } from "../../domain/AppError"
import { type Member } from "../../domain/Caller"
import { type CommunityId, Uuid } from "../../domain/Ids"
import { decodeCursor, DEFAULT_LIMIT, toPage } from "../../domain/Pagination"
import { subscriptionMessages as M } from "./messages"
import { type ListFilters, type SubscriptionRow, SubscriptionsRepo, type TeamRow } from "./Repo"
import { subscriptionView, teamView } from "./view"

/** The keyset cursor of subscription and billing lists (the last id). */
export const Cursor = Schema.Tuple(Uuid)

export interface PageInput {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/**
 * Finding the subscription a request acts on (the member's own, or any of the community's for the
 * team; another is 404) and showing it, for every use case of the feature.
 */
export class SubscriptionReading extends Effect.Service<SubscriptionReading>()("@roda/core/SubscriptionReading", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriptionsRepo

    const views = (rows: ReadonlyArray<SubscriptionRow>) =>
      rows.length === 0 ? Effect.succeed([]) : Effect.map(
        repo.addOns(rows[0]!.communityId, rows.map((row) => row.id)),
        (addOns) => rows.map((row) => subscriptionView(row, addOns))
      )

    const viewOf = (row: SubscriptionRow) => Effect.map(views([row]), (all) => all[0]!)

    /** The caller's own subscription (the acting profile's); another's is not found. */
    const own = (member: Member, id: string, lock = false) =>
      Effect.flatMap(
        repo.find(member.communityId, id, { lock, profileId: member.actingProfileId }),
        Option.match({ onNone: () => Effect.fail(notFound(M.notFound)), onSome: (row) => Effect.succeed(row) })
      )

    const anyOf = (member: Member, id: string, lock = false) =>
      Effect.flatMap(
        repo.find(member.communityId, id, { lock }),
        Option.match({ onNone: () => Effect.fail(notFound(M.notFound)), onSome: (row) => Effect.succeed(row) })
      )

    const reread = (row: SubscriptionRow) =>
      Effect.flatMap(repo.find(row.communityId, row.id), (found) => viewOf(Option.getOrThrow(found)))

    const pageOf = (communityId: CommunityId, filters: ListFilters, input: PageInput) =>
      Effect.gen(function*() {
        const limit = input.limit ?? DEFAULT_LIMIT
        const after = yield* decodeCursor(input.cursor, Cursor)
        const rows = yield* repo.list(communityId, filters, after?.[0], limit + 1)
        return toPage(rows, limit, (row) => [row.id])
      })

    /** One charge of a subscription at a time: another while one is at the gateway is a 409. */
    const noChargeInFlight = (row: SubscriptionRow) =>
      Effect.flatMap(
        repo.chargingNow(row.communityId, row.id),
        (charging) =>
          charging ? Effect.fail(conflict(M.chargeInFlight, [fieldError("status", M.chargeInFlight)])) : Effect.void
      )

    /** `row` as the team's detail route answers it (whose it is, its add-ons). */
    const teamViewOfRow = (row: SubscriptionRow) =>
      Effect.gen(function*() {
        const contact = Option.getOrUndefined(yield* repo.contact(row.communityId, row.profileId))
        const team = { ...row, fullName: contact?.fullName ?? "", email: contact?.email ?? "" } as TeamRow
        return teamView(team, yield* repo.addOns(row.communityId, [row.id]))
      })

    const teamViewOf = (member: Member, id: string) => Effect.flatMap(anyOf(member, id), teamViewOfRow)

    return { views, viewOf, own, anyOf, reread, pageOf, teamViewOf, teamViewOfRow, noChargeInFlight }
  }),
  dependencies: [SubscriptionsRepo.Default]
}) {}
