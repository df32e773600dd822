import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { isStorableDay } from "../domain/DateRange"
import { Ok } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { TimeZone, Trimmed } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { Currency } from "../domain/Money"
import { OneOf } from "../domain/Role"
import { ParametersRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"

const IsoDate = Trimmed(10, "must be an ISO 8601 date such as 2026-11-01").pipe(
  Schema.filter((value) =>
    isStorableDay(value) ||
    "must be an ISO 8601 date such as 2026-11-01"
  )
)

export const ReportQuery = Schema.Struct({
  from: Schema.optional(IsoDate),
  to: Schema.optional(IsoDate),
  interval: Schema.optional(OneOf("day", "week", "month")),
  timeZone: Schema.optional(TimeZone),
  currency: Schema.optional(Currency)
})

export const EmailStatsQuery = Schema.Struct({ from: Schema.optional(IsoDate), to: Schema.optional(IsoDate) })

const Num = Schema.Number
const head = {
  from: Schema.String,
  to: Schema.String,
  interval: Schema.String,
  timeZone: Schema.String
}
const point = <F extends Schema.Struct.Fields>(fields: F) => Schema.Struct({ period: Schema.String, ...fields })

const salesFields = {
  sales: Num,
  gross: Num,
  fees: Num,
  interest: Num,
  net: Num,
  refunds: Num,
  refundCount: Num
}
const Sales = {
  series: Schema.Array(point({ ...salesFields, byMethod: Schema.Record({ key: Schema.String, value: Num }) })),
  totals: Schema.Struct({
    ...salesFields,
    byMethod: Schema.Array(Schema.Struct({ paymentMethod: Schema.String, ...salesFields }))
  })
}
const Subscriptions = {
  series: Schema.Array(point({ new: Num, churned: Num, active: Num, mrr: Num })),
  totals: Schema.Struct({
    new: Num,
    churned: Num,
    active: Num,
    mrr: Num,
    byStatus: Schema.Record({ key: Schema.String, value: Num })
  })
}
const Members = {
  series: Schema.Array(point({ joined: Num, left: Num, total: Num, active: Num })),
  totals: Schema.Struct({ joined: Num, left: Num, total: Num })
}
const engagementFields = { posts: Num, comments: Num, reactions: Num, activeMembers: Num }
const Engagement = { series: Schema.Array(point(engagementFields)), totals: Schema.Struct(engagementFields) }
const eventFields = { events: Num, participants: Num, attendance: Num }
const Events = { series: Schema.Array(point(eventFields)), totals: Schema.Struct(eventFields) }
const courseFields = { enrollments: Num, lessonCompletions: Num, completions: Num }
const Courses = { series: Schema.Array(point(courseFields)), totals: Schema.Struct(courseFields) }
const activityFields = {
  posts: Num,
  comments: Num,
  reactions: Num,
  eventsJoined: Num,
  attendance: Num,
  eventsHosted: Num,
  enrollments: Num,
  lessonCompletions: Num,
  completions: Num
}

const MailCounts = { sent: Num, delivered: Num, failed: Num, pending: Num }
const EmailStats = Schema.Struct({
  from: Schema.NullOr(Schema.String),
  to: Schema.NullOr(Schema.String),
  ...MailCounts,
  byKind: Schema.Array(Schema.Struct({ kind: Schema.String, ...MailCounts }))
})

const READERS = "Owner, admin or finance (403 `Função necessária: owner ou admin ou finance. Sua função: …` otherwise)."
const RANGE =
  "Query: `from` and `to` (ISO dates, both included; default the last 30 days up to today), `interval` `day` (default), `week` (Monday to Sunday, labelled by the Monday) or `month` (labelled by the 1st), `timeZone` (IANA name; default the community's `timezone` setting, UTC when it set none; `data.timeZone` names the one used). Periods are calendar days, weeks and months in that time zone: each runs from local midnight of its first day to local midnight after its last (23 or 25 hours across a daylight-saving change), the range from local midnight of `from` to local midnight after `to`, and the default `to` is today there; a sale at 23:30 in São Paulo (UTC-3) counts on that day, not on the next UTC day. `data.series` has one point per period, zero-filled (`[{ \"period\": \"2026-11-01\", … }]`), ready for a chart; `data.totals` sums it (or, for running figures, takes the last period). A range spans at most 10 years (`to` before the same day ten years after `from`; 400 otherwise, param `from`) and at most 731 periods (400 otherwise, param `from`); `from` after `to` answers 400 (param `to`). Dates run from 0001-01-01 to 9999-12-31; a default end or start that would leave those years answers 400 naming the date given."

const report = <const Name extends string, const Path extends `/${string}`, const F extends Schema.Struct.Fields>(
  name: Name,
  path: Path,
  fields: F,
  description: string
) =>
  HttpApiEndpoint.get(name, path)
    .setUrlParams(ReportQuery)
    .addSuccess(Ok(Schema.Struct({ ...head, ...fields })))
    .addError(ParametersRefused)
    .annotate(OpenApi.Description, `${READERS} ${description} ${RANGE}`)

export class ReportsApi extends HttpApiGroup.make("reports")
  .annotateContext(OpenApi.annotations({
    title: "Reports",
    description:
      "Zero-filled time series with totals: sales, subscriptions, members, engagement, events, courses; e-mail stats."
  }))
  .add(
    report(
      "sales",
      "/reports/sales",
      { currency: Schema.String, ...Sales },
      "Sales from the ledger (checkout sales and subscription renewals alike), in minor units of `currency` (default the community's): per period `sales` (paid charges), `gross` (what buyers paid, interest included), `fees` (platform), `interest` (installments), `net` (credited to the community), `refunds` (money given back) and `refundCount`; `byMethod` gives the gross per payment method (`OTHER`: sales recorded before methods were kept). Totals add `byMethod` with every figure per method."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Sales report")
  )
  .add(
    report(
      "subscriptions",
      "/reports/subscriptions",
      { currency: Schema.String, ...Subscriptions },
      "Per period: `new` (started), `churned` (canceled), `active` (started and not ended at the period's end, paused ones included) and `mrr` (their monthly recurring revenue at the period's end, in minor units of `currency`: each subscription's price over its interval's months, plus the monthly price of each add-on it had at that moment; a subscription paused at that moment counts 0, as it is charged nothing until it resumes; past due and unpaid ones count, as they are owed; prices are the terms of the subscription's current option (a change of tier is not dated) and each add-on's as added, before discounts and coupons; summed as a yearly figure and divided by 12 once, half-even). Totals: new and churned summed, active and mrr of the last period, and `byStatus` (how many subscriptions are in each status now)."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Subscriptions report")
  )
  .add(
    report(
      "members",
      "/reports/members",
      Members,
      "Per period: `joined` (profiles that became active members), `left` (removed), `total` (members at the period's end) and `active` (distinct members who posted, commented or reacted)."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Members report")
  )
  .add(
    report(
      "engagement",
      "/reports/engagement",
      Engagement,
      "Per period: `posts` (status and content posts), `comments`, `reactions` and `activeMembers` (distinct members who did any of them); deleted posts and comments do not count. `totals.activeMembers` adds the periods up."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Engagement report")
  )
  .add(
    report(
      "events",
      "/reports/events",
      Events,
      "Per period: `events` (events starting), `participants` (sign-ups, going or waitlisted, not cancelled) and `attendance` (check-ins)."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Events report")
  )
  .add(
    report(
      "courses",
      "/reports/courses",
      Courses,
      "Per period: `enrollments`, `lessonCompletions` and `completions` (learners who completed a course's last lesson)."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Courses report")
  )
  .add(
    report(
      "overview",
      "/reports/overview",
      {
        currency: Schema.String,
        sales: Schema.Struct(Sales),
        subscriptions: Schema.Struct(Subscriptions),
        members: Schema.Struct(Members),
        engagement: Schema.Struct(Engagement),
        events: Schema.Struct(Events),
        courses: Schema.Struct(Courses)
      },
      "Every report above in one request, on the same periods: `sales`, `subscriptions`, `members`, `engagement`, `events`, `courses`, each with its `series` and `totals`."
    )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .annotate(OpenApi.Summary, "Overview report")
  )
  .add(
    HttpApiEndpoint.get("memberActivity", "/reports/members/:profileId/activity")
      .setPath(Schema.Struct({ profileId: Uuid }))
      .setUrlParams(ReportQuery)
      .addSuccess(
        Ok(Schema.Struct({
          ...head,
          profileId: Schema.String,
          series: Schema.Array(point(activityFields)),
          totals: Schema.Struct(activityFields)
        }))
      )
      .addError(declared(InvalidInput, "outside_years", "period_order", "too_long", "too_many_periods"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "profile_not_found"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        `${READERS} One member's activity per period: \`posts\`, \`comments\`, \`reactions\`, \`eventsJoined\`, \`attendance\` (check-ins), \`eventsHosted\`, \`enrollments\`, \`lessonCompletions\`, \`completions\`. A profile of another community answers 404. ${RANGE}`
      )
      .annotate(OpenApi.Summary, "A member's activity report")
  )
  .add(
    HttpApiEndpoint.get("emailStats", "/emails/stats")
      .setUrlParams(EmailStatsQuery)
      .addSuccess(Ok(EmailStats))
      .addError(declared(InvalidInput, "period_order"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Owner or admin (spec §5; 403 `Função necessária: owner ou admin. Sua função: …` otherwise, finance included). The community's e-mails from the outbox: `sent` (written to the outbox), `delivered` (handed to the mail server), `failed` (given up after 5 attempts), `pending` (waiting), in total and `byKind` (`invite`, `receipt`, `sale`, `refund`, …). `from` and `to` (ISO dates, UTC days, both included) bound the time the e-mails were written."
      )
      .annotate(OpenApi.Summary, "E-mail delivery statistics")
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
