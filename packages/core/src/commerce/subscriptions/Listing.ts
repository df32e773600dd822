import { Effect, Option, Stream } from "effect"
import { type Member } from "../../domain/Caller"
import { csvLine } from "../../domain/Csv"
import { decodeCursor, DEFAULT_LIMIT, toPage } from "../../domain/Pagination"
import { requireRole } from "../../domain/Policy"
import { traced } from "../../platform/traced"
import { outsideTransaction } from "../../sql/transaction"
import { type SubscriptionStatus, teamReaders } from "./Policy"
import { Cursor, type PageInput, SubscriptionReading } from "./Reading"
import { type ListFilters, type SubscriptionRow, SubscriptionsRepo } from "./Repo"
import { csvHeader } from "./subscriptionsCsv"
import { billingView, teamView } from "./view"

/**
 * Lines per statement of the CSV export: 20,000 subscriptions in 5 statements (the last finds none).
 * Larger pages were no faster, and a page's lines (~1.5 MB) sort for `string_agg` well within `work_mem`.
 */
const EXPORT_PAGE = 5000

/** The subscriptions as members (their own) and the team (the community's, and the CSV export) list them. */
export class SubscriptionListing extends Effect.Service<SubscriptionListing>()("@roda/core/SubscriptionListing", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriptionsRepo
    const reading = yield* SubscriptionReading
    const { views, viewOf, own, anyOf, pageOf, teamViewOf } = reading

    // ---------------------------------------------------------------- member

    const list = traced("Subscriptions.list")(
      function*(member: Member, input: PageInput & { readonly status?: SubscriptionStatus | undefined }) {
        const result = yield* pageOf(
          member.communityId,
          { profileId: member.actingProfileId, status: input.status },
          input
        )
        return { items: yield* views(result.items), pagination: result.pagination }
      }
    )

    /** The caller's subscriptions that are not over (final states left out), newest first. */
    const mine = traced("Subscriptions.mine")(function*(member: Member) {
      const rows = yield* repo.list(member.communityId, { profileId: member.actingProfileId }, undefined, 100)
      return yield* views(rows.filter((row) => row.status !== "canceled" && row.status !== "incomplete_expired"))
    })

    const detail = traced("Subscriptions.detail")(function*(member: Member, id: string) {
      return yield* viewOf(yield* own(member, id))
    })

    const billingsOf = (row: SubscriptionRow, input: PageInput) =>
      Effect.gen(function*() {
        const limit = input.limit ?? DEFAULT_LIMIT
        const after = yield* decodeCursor(input.cursor, Cursor)
        const rows = yield* repo.billings(row.communityId, row.id, after?.[0], limit + 1)
        const page = toPage(rows, limit, (billing) => [billing.id])
        return { items: page.items.map(billingView), pagination: page.pagination }
      })

    const billings = traced("Subscriptions.billings")(function*(member: Member, id: string, input: PageInput) {
      return yield* billingsOf(yield* own(member, id), input)
    })

    const teamList = traced("Subscriptions.teamList")(function*(member: Member, input: PageInput & ListFilters) {
      yield* requireRole(member, teamReaders)
      const result = yield* pageOf(member.communityId, input, input)
      const addOns = yield* repo.addOns(member.communityId, result.items.map((row) => row.id))
      return { items: result.items.map((row) => teamView(row, addOns)), pagination: result.pagination }
    })

    const teamDetail = traced("Subscriptions.teamDetail")(function*(member: Member, id: string) {
      yield* requireRole(member, teamReaders)
      return yield* teamViewOf(member, id)
    })

    const teamBillings = traced("Subscriptions.teamBillings")(
      function*(member: Member, id: string, input: PageInput) {
        yield* requireRole(member, teamReaders)
        return yield* billingsOf(yield* anyOf(member, id), input)
      }
    )

    /** The CSV export, streamed page by page (keyset; PostgreSQL writes the lines), outside any request transaction. */
    const exportCsv = traced("Subscriptions.exportCsv")(function*(member: Member, filters: ListFilters) {
      yield* requireRole(member, teamReaders)
      const pages = Stream.paginateEffect(
        undefined as string | undefined,
        (after) =>
          outsideTransaction(repo.exportPage(member.communityId, filters, after, EXPORT_PAGE)).pipe(
            Effect.map((page) =>
              [
                page.lines ?? "",
                page.count === EXPORT_PAGE ? Option.fromNullable(page.last) : Option.none()
              ] as const
            )
          )
      )
      return Stream.concat(Stream.make(csvLine(csvHeader)), pages).pipe(
        Stream.filter((chunk) => chunk.length > 0),
        Stream.encodeText
      )
    })

    return { list, mine, detail, billings, teamList, teamDetail, teamBillings, exportCsv }
  }),
  dependencies: [SubscriptionsRepo.Default, SubscriptionReading.Default]
}) {}
