import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, Redacted, Schema } from "effect"
import { CommunityTimeZone } from "../../communities/CommunityTimeZone"
import type { CommunityId } from "../../domain/Ids"
import { Jobs } from "../../platform/Jobs"
import { Mailer } from "../../platform/Mailer"
import { Options } from "../../platform/Options"
import type { NotificationKind } from "../kinds"
import { digestMail, instantMail } from "./emailText"
import { DIGEST_JOB, INSTANT_MAIL_JOB } from "./jobs"
import { type Cadence, type DueMail, NotificationMailRepo } from "./MailRepo"
import { signUnsubscribe, unsubscribeKey } from "./unsubscribeToken"

const HOUR = 3600_000
/** Recipients e-mailed per transaction. */
const BATCH = 50
/** An `instant` e-mail not sent by its minute's job after this long is sent by the hourly one. */
const STRAGGLER_MS = 2 * 60_000
/** Digests go out at this local hour; weekly ones on Mondays. */
const DIGEST_HOUR = 8

const decodeInstant = Schema.decodeUnknown(Schema.Struct({ communityId: Schema.String }))
const decodeDigest = Schema.decodeUnknown(Schema.Struct({ hour: Schema.Int }))

/** The local hour and weekday (0 = Sunday) of `at` in `timeZone`. */
const localTime = (at: Date, timeZone: string) => {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23", weekday: "short" })
    .formatToParts(at)
  const hour = Number(parts.find((part) => part.type === "hour")?.value)
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(
    parts.find((part) => part.type === "weekday")?.value ?? ""
  )
  return { hour, weekday }
}

/** Each recipient's rows, in order (the rows come sorted by recipient). */
const byRecipient = (rows: ReadonlyArray<DueMail>) => {
  const groups = new Map<string, Array<DueMail>>()
  for (const row of rows) {
    const group = groups.get(row.recipientProfileId)
    if (group === undefined) groups.set(row.recipientProfileId, [row])
    else group.push(row)
  }
  return [...groups.values()]
}

/**
 * Notification e-mails (platform.md "Notifications"): `instant` ones by a job per community and
 * minute (queued by the statement that writes the notifications), digests by an hourly job at 08:00
 * in each community's time zone (`daily`; `weekly` on Mondays), which also sends any `instant` one a
 * minute's job missed. Each e-mail carries its RFC 8058 one-click unsubscribe link. A notification
 * read in the app before its e-mail goes out is not e-mailed.
 */
export const NotificationMail = Layer.scopedDiscard(Effect.gen(function*() {
  const jobs = yield* Jobs
  const repo = yield* NotificationMailRepo
  const mailer = yield* Mailer
  const zones = yield* CommunityTimeZone
  const options = yield* Options
  const sql = yield* SqlClient.SqlClient
  const key = unsubscribeKey(Redacted.value(options.jwtSecret))
  const unsubscribeUrl = (row: DueMail, kinds: ReadonlyArray<NotificationKind>) =>
    `${options.publicBaseUrl}/api/notifications/unsubscribe?token=${
      signUnsubscribe(key, { communityId: row.communityId, profileId: row.recipientProfileId, kinds })
    }`

  const send = (row: DueMail, mail: { readonly subject: string; readonly text: string }, url: string) =>
    mailer.send({
      to: row.email!,
      subject: mail.subject,
      text: mail.text,
      kind: "notification",
      communityId: row.communityId,
      headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
    })

  /** E-mails the community's notifications due by `cadence`, a batch of recipients per transaction. */
  const mailAll = (communityId: string, cadence: Cadence, createdBefore?: Date) =>
    Effect.gen(function*() {
      for (;;) {
        const taken = yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* repo.take(communityId, cadence, BATCH, createdBefore)
          for (const group of byRecipient(rows)) {
            const first = group[0]!
            if (first.email === null) continue
            if (cadence === "instant") {
              for (const row of group) {
                const url = unsubscribeUrl(row, [row.kind as NotificationKind])
                yield* send(row, instantMail(row, url), url)
              }
            } else {
              const kinds = [...new Set(group.map((row) => row.kind as NotificationKind))]
              const url = unsubscribeUrl(first, kinds)
              yield* send(first, digestMail(cadence, group, url), url)
            }
          }
          return rows.length
        }))
        if (taken === 0) return
      }
    }).pipe(Effect.orDie)

  const instant = (payload: unknown) =>
    Effect.flatMap(decodeInstant(payload), ({ communityId }) => mailAll(communityId, "instant"))

  const queueDigest = (hour: number) =>
    jobs.enqueue({ kind: DIGEST_JOB, key: `${hour}`, payload: { hour }, runAt: hour * HOUR })

  const digest = (payload: unknown) =>
    Effect.gen(function*() {
      const { hour } = yield* decodeDigest(payload)
      const at = new Date(hour * HOUR)
      const now = yield* Clock.currentTimeMillis
      for (const { communityId, emailDue } of yield* repo.pending(new Date(now - STRAGGLER_MS))) {
        if (emailDue === "instant") {
          yield* mailAll(communityId, "instant", new Date(now - STRAGGLER_MS))
          continue
        }
        const zone = Option.getOrElse(yield* zones.of(communityId as CommunityId), () => "UTC")
        const local = localTime(at, zone)
        if (local.hour !== DIGEST_HOUR) continue
        if (emailDue === "daily" || (emailDue === "weekly" && local.weekday === 1)) {
          yield* mailAll(communityId, emailDue)
        }
      }
      yield* queueDigest(hour + 1)
    })

  yield* jobs.handle(INSTANT_MAIL_JOB, instant, { leaseSeconds: 120 })
  yield* jobs.handle(DIGEST_JOB, digest, { leaseSeconds: 300 })
  if (options.runJobs !== false) {
    yield* queueDigest(Math.floor((yield* Clock.currentTimeMillis) / HOUR) + 1)
  }
}))
