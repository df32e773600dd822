import { TransactionConnection } from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import { SubscriptionStats } from "../commerce/subscriptions/SubscriptionStats"
import { CommunityTimeZone } from "../communities/CommunityTimeZone"
import { MemberStats } from "../communities/MemberStats"
import { CourseStats } from "../courses/CourseStats"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { rangeEnd, rangeStart } from "../domain/DateRange"
import { type CommunityId, ProfileId } from "../domain/Ids"
import { paymentMethods } from "../domain/Money"
import { requireRole } from "../domain/Policy"
import type { Role } from "../domain/Role"
import { EventStats } from "../events/EventStats"
import { SellingStatus } from "../money/accounts/SellingStatus"
import { SalesStats } from "../money/ledger/SalesStats"
import { MailStats } from "../platform/MailStats"
import { traced } from "../platform/traced"
import { EngagementStats } from "../social/EngagementStats"
import { reportMessages as M } from "./messages"
import { rangeOf, type RangeQuery, totalsOf, zeroFilled } from "./range"

/** Who reads reports (spec §5: finance reads sales): owner, admin and finance. */
export const reportReaders: ReadonlyArray<Role> = ["owner", "admin", "finance"]
/** Who reads e-mail stats (spec §5). */
export const emailStatsReaders: ReadonlyArray<Role> = ["owner", "admin"]

export interface ReportQuery extends RangeQuery {
  readonly currency?: string | undefined
}

const SALES = ["sales", "gross", "fees", "interest", "net", "refunds", "refundCount"] as const
const SUBSCRIPTIONS = ["new", "churned", "active", "mrr"] as const
const MEMBERS = ["joined", "left", "total", "active"] as const
const ENGAGEMENT = ["posts", "comments", "reactions", "activeMembers"] as const
const EVENTS = ["events", "participants", "attendance"] as const
const COURSES = ["enrollments", "lessonCompletions", "completions"] as const

const last = <A>(series: ReadonlyArray<A>) => series[series.length - 1]

/**
 * How many independent reads of a report run at once: a GET has no request transaction, so each
 * statement takes a pool connection of its own and the overview costs about its slowest reads, not
 * their sum (bench/scale: 338 ms one after another). Inside a caller's transaction there is one
 * connection: one after another.
 */
const SIDE_BY_SIDE = 3

const sideBySide = Effect.map(
  Effect.serviceOption(TransactionConnection),
  (outer) => Option.isSome(outer) ? 1 : SIDE_BY_SIDE
)

/**
 * Reports (spec §4): chart-ready series, zero-filled per period, and totals. Each figure comes from
 * the feature that owns it through its `*Stats` read contract (one SQL aggregation per series); this
 * module only shapes periods.
 */
export class Reports extends Effect.Service<Reports>()("@roda/core/Reports", {
  effect: Effect.gen(function*() {
    const sales = yield* SalesStats
    const subscriptions = yield* SubscriptionStats
    const members = yield* MemberStats
    const engagement = yield* EngagementStats
    const events = yield* EventStats
    const courses = yield* CourseStats
    const selling = yield* SellingStatus
    const mail = yield* MailStats
    const zones = yield* CommunityTimeZone

    /**
     * The query with the time zone its days are cut in: the one asked for, else the community's
     * (its settings' `timezone`), else UTC.
     */
    const zoned = (member: Member, query: ReportQuery) =>
      query.timeZone === undefined
        ? Effect.map(zones.of(member.communityId), (zone) => ({
          ...query,
          timeZone: Option.getOrElse(zone, () => "UTC")
        }))
        : Effect.succeed(query)

    const prepare = (member: Member, query: ReportQuery) =>
      Effect.gen(function*() {
        yield* requireRole(member, reportReaders)
        const { labels, range } = yield* rangeOf(yield* zoned(member, query))
        return {
          labels,
          range,
          head: { from: range.from, to: range.to, interval: range.interval, timeZone: range.timeZone }
        }
      })

    const currencyOf = (member: Member, query: ReportQuery) =>
      query.currency === undefined ? selling.defaultCurrency(member.communityId) : Effect.succeed(query.currency)

    const salesReport = (member: Member, query: ReportQuery) =>
      Effect.gen(function*() {
        const { head, labels, range } = yield* prepare(member, query)
        const currency = yield* currencyOf(member, query)
        const rows = yield* sales.series(member.communityId, currency, range)
        const methods = [...paymentMethods, "OTHER"] as const
        const methodOf = (row: { paymentMethod: string | null }) =>
          row.paymentMethod !== null && (paymentMethods as ReadonlyArray<string>).includes(row.paymentMethod)
            ? row.paymentMethod
            : "OTHER"
        const grossOf = new Map<string, number>()
        for (const row of rows) {
          const key = `${row.period} ${methodOf(row)}`
          grossOf.set(key, (grossOf.get(key) ?? 0) + row.gross)
        }
        const series = zeroFilled(labels, rows, SALES).map((point) => ({
          ...point,
          byMethod: Object.fromEntries(methods.map((method) => [method, grossOf.get(`${point.period} ${method}`) ?? 0]))
        }))
        const byMethod = methods.map((method) => ({
          paymentMethod: method,
          ...totalsOf(
            zeroFilled(labels, rows.filter((row) => methodOf(row) === method), SALES),
            SALES
          )
        })).filter((row) => row.paymentMethod !== "OTHER" || row.sales > 0 || row.refunds > 0)
        return { ...head, currency, series, totals: { ...totalsOf(series, SALES), byMethod } }
      })

    const subscriptionsReport = (member: Member, query: ReportQuery) =>
      Effect.gen(function*() {
        const { head, labels, range } = yield* prepare(member, query)
        const currency = yield* currencyOf(member, query)
        const [rows, statuses] = yield* Effect.all([
          subscriptions.series(member.communityId, currency, range),
          subscriptions.byStatus(member.communityId)
        ], { concurrency: yield* sideBySide })
        const series = zeroFilled(labels, rows, SUBSCRIPTIONS)
        const byStatus = Object.fromEntries(statuses.map((row) => [row.status, row.count]))
        const end = last(series)
        return {
          ...head,
          currency,
          series,
          totals: {
            new: series.reduce((sum, row) => sum + row.new, 0),
            churned: series.reduce((sum, row) => sum + row.churned, 0),
            active: end?.active ?? 0,
            mrr: end?.mrr ?? 0,
            byStatus
          }
        }
      })

    /** The members report of the rows read: `active` is the engagement report's `activeMembers`. */
    const membersOf = (
      labels: ReadonlyArray<string>,
      joined: ReadonlyArray<
        { readonly period: string; readonly joined: number; readonly left: number; readonly total: number }
      >,
      activity: ReadonlyArray<{ readonly period: string; readonly activeMembers: number }>
    ) => {
      const series = zeroFilled(
        labels,
        [
          ...joined.map((row) => ({ ...row, active: 0 })),
          ...activity.map((row) => ({ period: row.period, active: row.activeMembers, joined: 0, left: 0, total: 0 }))
        ],
        MEMBERS
      )
      return {
        series,
        totals: {
          joined: series.reduce((sum, row) => sum + row.joined, 0),
          left: series.reduce((sum, row) => sum + row.left, 0),
          total: last(series)?.total ?? 0
        }
      }
    }

    const membersReport = (member: Member, query: ReportQuery) =>
      Effect.gen(function*() {
        const { head, labels, range } = yield* prepare(member, query)
        const [joined, activity] = yield* Effect.all([
          members.series(member.communityId, range),
          engagement.series(member.communityId, range)
        ], { concurrency: yield* sideBySide })
        return { ...head, ...membersOf(labels, joined, activity) }
      })

    const simple = <K extends string>(
      load: (communityId: CommunityId, range: Parameters<typeof sales.series>[2]) => Effect.Effect<
        ReadonlyArray<{ readonly period: string } & { readonly [key in K]: number }>
      >,
      keys: ReadonlyArray<K>
    ) =>
    (member: Member, query: ReportQuery) =>
      Effect.gen(function*() {
        const { head, labels, range } = yield* prepare(member, query)
        const series = zeroFilled(labels, yield* load(member.communityId, range), keys)
        return { ...head, series, totals: totalsOf(series, keys) }
      })

    const engagementReport = simple((communityId, range) => engagement.series(communityId, range), ENGAGEMENT)
    const eventsReport = simple((communityId, range) => events.series(communityId, range), EVENTS)
    const coursesReport = simple((communityId, range) => courses.series(communityId, range), COURSES)

    const overview = (member: Member, asked: ReportQuery) =>
      Effect.gen(function*() {
        yield* requireRole(member, reportReaders)
        // the community's time zone and currency read once: every report below gets them in the query
        const zonedQuery = yield* zoned(member, asked)
        const { head, labels, range } = yield* prepare(member, zonedQuery)
        const query = { ...zonedQuery, currency: yield* currencyOf(member, zonedQuery) }
        const strip = <S, T>(report: { readonly series: S; readonly totals: T }) => ({
          series: report.series,
          totals: report.totals
        })
        // the engagement rows read once: the members report's `active` is their `activeMembers`
        const [activity, learned, subscribed, sale, joined, happened] = yield* Effect.all([
          engagement.series(member.communityId, range),
          coursesReport(member, query),
          subscriptionsReport(member, query),
          salesReport(member, query),
          members.series(member.communityId, range),
          eventsReport(member, query)
        ], { concurrency: yield* sideBySide })
        const engaged = zeroFilled(labels, activity, ENGAGEMENT)
        return {
          ...head,
          currency: sale.currency,
          sales: strip(sale),
          subscriptions: strip(subscribed),
          members: membersOf(labels, joined, activity),
          engagement: { series: engaged, totals: totalsOf(engaged, ENGAGEMENT) },
          events: strip(happened),
          courses: strip(learned)
        }
      })

    const ACTIVITY = [
      "posts",
      "comments",
      "reactions",
      "eventsJoined",
      "attendance",
      "eventsHosted",
      "enrollments",
      "lessonCompletions",
      "completions"
    ] as const

    const memberActivity = (member: Member, profileId: string, query: ReportQuery) =>
      Effect.gen(function*() {
        const { head, labels, range } = yield* prepare(member, query)
        const id = ProfileId.make(profileId.toLowerCase())
        if (!(yield* members.exists(member.communityId, id))) return yield* Effect.fail(notFound(M.profileNotFound))
        const zero = Object.fromEntries(ACTIVITY.map((key) => [key, 0])) as Record<typeof ACTIVITY[number], number>
        const [engaged, took, learned] = yield* Effect.all([
          engagement.series(member.communityId, range, id),
          events.series(member.communityId, range, id),
          courses.series(member.communityId, range, id)
        ], { concurrency: yield* sideBySide })
        const rows = [
          ...engaged.map((row) => ({
            ...zero,
            period: row.period,
            posts: row.posts,
            comments: row.comments,
            reactions: row.reactions
          })),
          ...took.map((row) => ({
            ...zero,
            period: row.period,
            eventsJoined: row.participants,
            attendance: row.attendance,
            eventsHosted: row.events
          })),
          ...learned.map((row) => ({
            ...zero,
            period: row.period,
            enrollments: row.enrollments,
            lessonCompletions: row.lessonCompletions,
            completions: row.completions
          }))
        ]
        const series = zeroFilled(labels, rows, ACTIVITY)
        return { ...head, profileId: id, series, totals: totalsOf(series, ACTIVITY) }
      })

    const emailStats = traced("Reports.emailStats")(
      function*(member: Member, query: { readonly from?: string | undefined; readonly to?: string | undefined }) {
        yield* requireRole(member, emailStatsReaders)
        const from = query.from === undefined ? undefined : rangeStart(query.from)
        const until = query.to === undefined ? undefined : rangeEnd(query.to)
        if (from !== undefined && until !== undefined && from.getTime() >= until.getTime()) {
          return yield* Effect.fail(invalidField("to", M.periodOrder, "query"))
        }
        const byKind = yield* mail.byKind(member.communityId, { from, until })
        const sum = (key: "sent" | "delivered" | "failed" | "pending") =>
          byKind.reduce((total, row) => total + row[key], 0)
        return {
          from: query.from ?? null,
          to: query.to ?? null,
          sent: sum("sent"),
          delivered: sum("delivered"),
          failed: sum("failed"),
          pending: sum("pending"),
          byKind
        }
      }
    )

    return {
      sales: (member: Member, query: ReportQuery) => salesReport(member, query).pipe(Effect.withSpan("Reports.sales")),
      subscriptions: (member: Member, query: ReportQuery) =>
        subscriptionsReport(member, query).pipe(Effect.withSpan("Reports.subscriptions")),
      members: (member: Member, query: ReportQuery) =>
        membersReport(member, query).pipe(Effect.withSpan("Reports.members")),
      engagement: (member: Member, query: ReportQuery) =>
        engagementReport(member, query).pipe(Effect.withSpan("Reports.engagement")),
      events: (member: Member, query: ReportQuery) =>
        eventsReport(member, query).pipe(Effect.withSpan("Reports.events")),
      courses: (member: Member, query: ReportQuery) =>
        coursesReport(member, query).pipe(Effect.withSpan("Reports.courses")),
      overview: (member: Member, query: ReportQuery) =>
        overview(member, query).pipe(Effect.withSpan("Reports.overview")),
      memberActivity: (member: Member, profileId: string, query: ReportQuery) =>
        memberActivity(member, profileId, query).pipe(Effect.withSpan("Reports.memberActivity")),
      emailStats
    }
  })
}) {}
