import { Args, Command, Options } from "@effect/cli"
import { Fees, SellingAccounts } from "@roda/core"
import { Effect, Option } from "effect"
import { as, communityUuid, intBetween, json, reasonOf } from "../options"
import { fields, print, table } from "../output"
import { operator, withServices } from "../session"
import { accounts } from "./accounts"
import { audit } from "./audit"
import { sessions } from "./sessions"

const subject = Args.choice([["business", "business" as const], ["payout", "payout" as const]], { name: "subject" })
  .pipe(Args.withDescription("business (business information) or payout (payout settings)"))
const communityArg = Args.text({ name: "communityId" }).pipe(Args.withDescription("Id of the community"))

const subjectName = { business: "business information", payout: "payout settings" } as const

const list = Command.make(
  "list",
  { as, json, limit: intBetween("limit", 1, 1000).pipe(Options.withDefault(100)) },
  ({ as, json, limit }) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(as)
      const queue = yield* (yield* SellingAccounts).reviewQueue(account, limit)
      yield* print(json, queue, (rows) =>
        rows.length === 0 ? "Nothing waits for review." : table(rows, [
          ["SUBJECT", (row) => row.subject],
          ["COMMUNITY", (row) => row.communityId],
          ["NAME", (row) => row.communityName],
          ["SUBMITTED", (row) => row.submittedAt]
        ]))
    }))
).pipe(Command.withDescription("List what waits for review: submitted business information and payout settings"))

const show = Command.make(
  "show",
  { as, json, communityId: communityArg },
  ({ as, communityId, json }) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(as)
      const review = yield* (yield* SellingAccounts).reviewOf(account, yield* communityUuid("communityId", communityId))
      yield* print(json, review, (data) =>
        [
          `Community ${data.communityName} (${data.communityId})`,
          "",
          "Business information",
          fields(data.business),
          "",
          "Payout settings",
          fields(data.payout)
        ].join("\n"))
    }))
).pipe(Command.withDescription("Show a community's business information and payout settings"))

/** The operator's decision: approve, or reject with `reason`. */
const decide = (
  input: {
    readonly as: string
    readonly json: boolean
    readonly subject: "business" | "payout"
    readonly communityId: string
  },
  reason?: string
) =>
  withServices(Effect.gen(function*() {
    const account = yield* operator(input.as)
    const communityId = yield* communityUuid("communityId", input.communityId)
    const decision = reason === undefined
      ? { approve: true as const }
      : { approve: false as const, reason: yield* reasonOf(reason, 1000) }
    const accounts = yield* SellingAccounts
    const record = input.subject === "business"
      ? yield* accounts.reviewBusiness(account, communityId, decision)
      : yield* accounts.reviewPayout(account, communityId, decision)
    yield* print(input.json, record, (data) =>
      `${subjectName[input.subject]} of ${communityId} ${decision.approve ? "approved" : "rejected"}\n${fields(data)}`)
  }))

const target = { as, json, subject, communityId: communityArg }

const approve = Command.make("approve", target, (input) => decide(input)).pipe(
  Command.withDescription("Approve submitted business information or payout settings (the owners are e-mailed)")
)

const reject = Command.make(
  "reject",
  { ...target, reason: Options.text("reason").pipe(Options.withDescription("Why (sent to the owners)")) },
  (input) => decide(input, input.reason)
).pipe(Command.withDescription("Reject submitted business information or payout settings with a reason"))

const reviews = Command.make("reviews").pipe(
  Command.withDescription("Business information and payout settings waiting for a platform operator"),
  Command.withSubcommands([list, show, approve, reject])
)

// ---- Fee overrides

const method = Args.choice([
  ["CREDIT_CARD", "CREDIT_CARD" as const],
  ["PIX", "PIX" as const],
  ["BOLETO", "BOLETO" as const]
], { name: "method" }).pipe(Args.withDescription("CREDIT_CARD, PIX or BOLETO"))

interface MethodFees {
  readonly paymentMethod: string
  readonly percentBps: number
  readonly fixed: number
  readonly interestRateBps: number
  readonly maxInstallments: number
  readonly releaseAfterDays: number
  readonly overridden: boolean
  readonly updatedAt: string | null
}

const feeColumns = [
  ["METHOD", (row: MethodFees) => row.paymentMethod],
  ["PERCENT_BPS", (row: MethodFees) => row.percentBps],
  ["FIXED", (row: MethodFees) => row.fixed],
  ["INTEREST_BPS", (row: MethodFees) => row.interestRateBps],
  ["MAX_INSTALLMENTS", (row: MethodFees) => row.maxInstallments],
  ["RELEASE_DAYS", (row: MethodFees) => row.releaseAfterDays],
  ["OVERRIDDEN", (row: MethodFees) => (row.overridden ? "yes" : "no")],
  ["UPDATED", (row: MethodFees) => row.updatedAt]
] as const

const feesShow = Command.make(
  "show",
  { as, json, communityId: communityArg },
  ({ as, communityId, json }) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(as)
      const fees = yield* (yield* Fees).operatorList(account, yield* communityUuid("communityId", communityId))
      yield* print(
        json,
        fees,
        (data) => `Fees of ${data.communityId} (${data.currency})\n${table(data.methods, feeColumns)}`
      )
    }))
).pipe(Command.withDescription("Show a community's fees in force (platform defaults or overrides)"))

const feesSet = Command.make(
  "set",
  {
    as,
    json,
    communityId: communityArg,
    method,
    percentBps: intBetween("percent-bps", 0, 10_000).pipe(
      Options.withDescription("Percentage in basis points (0-10000; 399 = 3.99%)")
    ),
    fixed: intBetween("fixed", 0, 1_000_000).pipe(
      Options.withDescription("Fixed part in minor units (0-1000000)")
    ),
    interestRateBps: intBetween("interest-bps", 1, 1_000).pipe(
      Options.optional,
      Options.withDescription("Monthly installment interest in basis points (credit card only, 1-1000)")
    )
  },
  (input) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(input.as)
      const communityId = yield* communityUuid("communityId", input.communityId)
      const saved = yield* (yield* Fees).setOverride(account, communityId, input.method, {
        percentBps: input.percentBps,
        fixed: input.fixed,
        interestRateBps: Option.getOrNull(input.interestRateBps)
      })
      yield* print(input.json, saved, (data) => `Fee override saved\n${table([data], feeColumns)}`)
    }))
).pipe(Command.withDescription("Set a community's fees for one payment method"))

const feesRemove = Command.make(
  "remove",
  { as, json, communityId: communityArg, method },
  ({ as, communityId, json, method }) =>
    withServices(Effect.gen(function*() {
      const account = yield* operator(as)
      const removed = yield* (yield* Fees).removeOverride(
        account,
        yield* communityUuid("communityId", communityId),
        method
      )
      yield* print(json, removed, (data) => `Fee override removed\n${table([data], feeColumns)}`)
    }))
).pipe(Command.withDescription("Remove a community's fee override: the platform defaults apply again"))

const fees = Command.make("fees").pipe(
  Command.withDescription("Per-community fee overrides"),
  Command.withSubcommands([feesShow, feesSet, feesRemove])
)

export const admin = Command.make("admin").pipe(
  Command.withDescription(
    "Platform operators: reviews of business information and payout settings, fee overrides, sessions, the audit log, accounts sharing an e-mail"
  ),
  Command.withSubcommands([reviews, fees, sessions, audit, accounts])
)
