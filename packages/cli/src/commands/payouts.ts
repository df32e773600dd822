import { Args, Command, Options } from "@effect/cli"
import { csvLine, Payouts } from "@roda/core"
import { Effect, Option } from "effect"
import { writeFile } from "node:fs/promises"
import { as, communityUuid, cursor, json, limit, reasonOf, uuid } from "../options"
import { type Column, fields, print, printPage } from "../output"
import { operator, withServices } from "../session"

const statuses = ["pending", "in_transit", "paid", "failed", "canceled"] as const
type Status = typeof statuses[number]

const status = Options.choice("status", statuses).pipe(
  Options.optional,
  Options.withDescription("Only payouts in this state")
)
const communityFilter = Options.text("community").pipe(
  Options.withAlias("c"),
  Options.optional,
  Options.withDescription("Only this community's payouts (default: every community)")
)
const communityOption = Options.text("community").pipe(
  Options.withAlias("c"),
  Options.withDescription("Id of the payout's community")
)
const idArg = Args.text({ name: "payoutId" }).pipe(Args.withDescription("Id of the payout"))

interface Row {
  readonly id: string
  readonly communityId?: string
  readonly status: string
  readonly amount: number
  readonly fee: number
  readonly total: number
  readonly currency: string
  readonly method: string | null
  readonly destination: string | null
  readonly requestedBy: string
  readonly failureReason: string | null
  readonly createdAt: string
  readonly inTransitAt: string | null
  readonly paidAt: string | null
  readonly failedAt: string | null
  readonly canceledAt: string | null
}

const columns: ReadonlyArray<Column<Row>> = [
  ["ID", (row) => row.id],
  ["COMMUNITY", (row) => row.communityId],
  ["STATUS", (row) => row.status],
  ["AMOUNT", (row) => row.amount],
  ["FEE", (row) => row.fee],
  ["CURRENCY", (row) => row.currency],
  ["METHOD", (row) => row.method],
  ["CREATED", (row) => row.createdAt]
]

/** One page of payouts: a community's, or every community's. */
const pageOf = (
  account: Parameters<Payouts["platformList"]>[0],
  community: Option.Option<string>,
  query: { readonly status?: Status | undefined; readonly limit?: number | undefined; readonly cursor?: string }
) =>
  Effect.gen(function*() {
    const payouts = yield* Payouts
    if (Option.isNone(community)) return yield* payouts.platformList(account, query)
    const communityId = yield* communityUuid("community", community.value)
    const page = yield* payouts.operatorList(account, communityId, query)
    return { items: page.items.map((item) => ({ communityId, ...item })), pagination: page.pagination }
  })

const list = Command.make(
  "list",
  { as, json, community: communityFilter, status, limit, cursor },
  (input) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(input.as)
      const page = yield* pageOf(account, input.community, {
        status: Option.getOrUndefined(input.status),
        limit: Option.getOrUndefined(input.limit),
        ...(Option.isSome(input.cursor) ? { cursor: input.cursor.value } : {})
      })
      yield* printPage(input.json, page, columns)
    }))
).pipe(Command.withDescription("List payouts, newest first (filters: --community, --status)"))

const show = Command.make(
  "show",
  { as, json, community: communityOption, id: idArg },
  (input) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(input.as)
      const communityId = yield* communityUuid("community", input.community)
      const payout = yield* (yield* Payouts).operatorDetail(account, communityId, yield* uuid("payoutId", input.id))
      yield* print(input.json, { communityId, ...payout }, fields)
    }))
).pipe(Command.withDescription("Show one payout"))

const moveTo = (
  input: { readonly as: string; readonly json: boolean; readonly community: string; readonly id: string },
  to: "in_transit" | "paid" | "failed",
  reason?: string
) =>
  withServices(Effect.gen(function*() {
    const account = yield* operator(input.as)
    const communityId = yield* communityUuid("community", input.community)
    const id = yield* uuid("payoutId", input.id)
    const why = reason === undefined ? undefined : yield* reasonOf(reason, 500)
    const payout = yield* (yield* Payouts).operate(account, communityId, id, to, why)
    yield* print(
      input.json,
      { communityId, ...payout },
      (data) => `Payout ${data.id} is ${data.status}\n${fields(data)}`
    )
  }))

const target = { as, json, community: communityOption, id: idArg }

const inTransit = Command.make("in-transit", target, (input) => moveTo(input, "in_transit")).pipe(
  Command.withDescription("Mark a pending payout as sent to the bank")
)
const paid = Command.make("paid", target, (input) => moveTo(input, "paid")).pipe(
  Command.withDescription("Mark an in-transit payout as paid")
)
const failed = Command.make(
  "failed",
  { ...target, reason: Options.text("reason").pipe(Options.withDescription("Why it failed (required)")) },
  (input) => moveTo(input, "failed", input.reason)
).pipe(Command.withDescription("Mark a payout as failed with a reason (amount and fee go back to available)"))

const csvColumns = [
  "id",
  "communityId",
  "status",
  "amount",
  "fee",
  "total",
  "currency",
  "method",
  "destination",
  "requestedBy",
  "failureReason",
  "createdAt",
  "inTransitAt",
  "paidAt",
  "failedAt",
  "canceledAt"
] as const

const exportCsv = Command.make(
  "export",
  {
    as,
    community: communityFilter,
    status,
    output: Options.file("output").pipe(
      Options.withAlias("o"),
      Options.optional,
      Options.withDescription("Write the CSV to this file (default: stdout)")
    )
  },
  (input) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(input.as)
      let csv = csvLine(csvColumns)
      let next: string | null | undefined = undefined
      do {
        const page: { items: ReadonlyArray<Row>; pagination: { nextCursor: string | null } } = yield* pageOf(
          account,
          input.community,
          { status: Option.getOrUndefined(input.status), limit: 100, ...(next ? { cursor: next } : {}) }
        )
        for (const row of page.items) csv += csvLine(csvColumns.map((column) => row[column]))
        next = page.pagination.nextCursor
      } while (next !== null)
      if (Option.isSome(input.output)) {
        const path = input.output.value
        yield* Effect.promise(() => writeFile(path, csv))
      } else {
        yield* Effect.sync(() => process.stdout.write(csv))
      }
    }))
).pipe(Command.withDescription("Export payouts as CSV (every page; filters: --community, --status)"))

export const payouts = Command.make("payouts").pipe(
  Command.withDescription("Payouts of the communities: list, show, move on (in transit, paid, failed), export"),
  Command.withSubcommands([
    list,
    show,
    inTransit,
    paid,
    failed,
    exportCsv
  ])
)
