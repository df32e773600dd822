import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { Memberships } from "../communities/Memberships"
import { COURSE_COMPLETED_JOB, CourseCompleted } from "../courses/CourseCompleted"
import type { CommunityId, ProfileId, SpaceId } from "../domain/Ids"
import { EVENT_ATTENDED_JOB, EventAttended } from "../events/EventAttended"
import { Notify } from "../notifications/Notify"
import { BlobStore } from "../platform/BlobStore"
import { fromBase64Url } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { Mailer } from "../platform/Mailer"
import { transactional } from "../sql/transaction"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { codeOf } from "./codes"
import { MAX_ATTEMPTS } from "./Policy"
import { pdfKeyOf, Rendering } from "./Rendering"
import { type BatchRow, type CertificateRow, CertificatesRepo, type NewCertificate } from "./Repo"
import { certificateView } from "./view"

export const GENERATE_JOB = "certificates.generate"

/** Seconds a worker holds a certificate it is generating before another may take it over. */
const LEASE_SECONDS = 30

/** Jobs per batch: several workers (processes) share a large batch. */
const jobsFor = (recipients: number) => Math.max(1, Math.min(4, Math.ceil(recipients / 50)))

const Work = Schema.Struct({
  communityId: Schema.String,
  batchId: Schema.NullOr(Schema.String),
  certificateId: Schema.NullOr(Schema.String)
})

/**
 * Generation of certificates as durable jobs (`platform/Jobs.ts`). A job names a batch (or one
 * certificate) and loops: claim one certificate (`FOR UPDATE SKIP LOCKED`, a lease), render its PDF
 * outside any transaction, store it, then in one transaction mark it `issued` (only if this attempt
 * still holds it), count it in the batch, notify the holder (`certificate_issued`), write their e-mail
 * (if they want that kind by e-mail) and the `certificate.issued` webhook event to their outboxes. A
 * process killed mid-way leaves `generating` rows whose lease runs out; the job (also leased) is taken
 * again and resumes them. A render error puts the row back to `pending` until its third attempt, then
 * `failed`.
 */
export class Generation extends Effect.Service<Generation>()("@roda/core/CertificateGeneration", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CertificatesRepo
    const rendering = yield* Rendering
    const blobs = yield* BlobStore
    const mailer = yield* Mailer
    const jobs = yield* Jobs
    const ids = yield* Ids
    const memberships = yield* Memberships
    const webhooks = yield* WebhookEvents
    const { notifyMailing } = yield* Notify
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const mailOf = (row: CertificateRow, title: string) => ({
      to: row.recipientEmail,
      communityId: row.communityId,
      kind: "certificate-issued",
      subject: `Seu certificado: ${title}`,
      text: [
        `Olá, ${row.recipientName}!`,
        "",
        `Seu certificado "${title}" (${row.spaceTitle}) foi emitido.`,
        `Veja e compartilhe: ${rendering.base}/certificates/${row.code}`,
        `Código de verificação: ${row.code}`
      ].join("\n")
    })

    const succeed = (row: CertificateRow, pdfKey: string, title: string) =>
      transactional(sql)(Effect.gen(function*() {
        const at = yield* now
        const marked = yield* repo.markIssued(row, pdfKey, at)
        if (Option.isNone(marked)) return
        if (row.batchId !== null) yield* repo.countBatch(row.batchId, { issued: 1 }, at)
        // the holder's `certificate_issued`; the e-mail (with the link) only if they want this kind by e-mail
        const mailed = yield* notifyMailing(row.communityId, {
          kind: "certificate_issued",
          recipients: [row.profileId],
          subject: { type: "certificate", id: row.id, title },
          onceKey: row.id
        })
        if (mailed.includes(row.profileId)) yield* mailer.send(mailOf(row, title))
        // every way of issuing (staff, automatic, reissue, retry) ends here, once per certificate
        yield* webhooks.emit(row.communityId, "certificate.issued", certificateView(marked.value, rendering.base, true))
      })).pipe(Effect.withSpan("Certificates.issued"))

    const fail = (row: CertificateRow, error: string) =>
      transactional(sql)(Effect.gen(function*() {
        const at = yield* now
        const status = row.attempts >= MAX_ATTEMPTS ? "failed" as const : "pending" as const
        if (!(yield* repo.markError(row, status, error.slice(0, 1000), at))) return
        if (status === "failed" && row.batchId !== null) yield* repo.countBatch(row.batchId, { failed: 1 }, at)
      }))

    const generate = (row: CertificateRow) =>
      Effect.gen(function*() {
        const template = yield* repo.findTemplate(row.communityId, row.templateId)
        if (Option.isNone(template)) return yield* Effect.fail(new Error("template not found"))
        const content = yield* rendering.contentOf(row, template.value)
        const pdf = yield* rendering.pdf(content, row.issuedAt ?? (yield* now))
        const key = pdfKeyOf(row)
        yield* blobs.put(key, pdf, "application/pdf")
        yield* succeed(row, key, content.title)
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`Certificate ${row.id} not generated (attempt ${row.attempts})`, cause).pipe(
            Effect.zipRight(fail(row, String(cause)))
          )
        )
      )

    const claimNext = (work: typeof Work.Type) =>
      Effect.gen(function*() {
        const at = yield* now
        return yield* repo.claim(work, at, new Date(at.getTime() + LEASE_SECONDS * 1000))
      })

    const run = (payload: unknown) =>
      Effect.gen(function*() {
        const work = yield* Schema.decodeUnknown(Work)(payload).pipe(Effect.orDie)
        if (work.batchId !== null) yield* repo.startBatch(work.batchId, yield* now)
        while (true) {
          const next = yield* claimNext(work)
          if (Option.isNone(next)) return yield* afterLeases(work)
          yield* generate(next.value)
        }
      })

    /**
     * Nothing left to claim, but a certificate may still be held by a worker that died mid-render:
     * its lease outlives this job's, so a job comes back when it ends to take the certificate over.
     */
    const afterLeases = (work: typeof Work.Type) =>
      Effect.gen(function*() {
        const until = yield* repo.leaseEnd(work)
        if (until === null) return
        yield* jobs.enqueue({
          kind: GENERATE_JOB,
          key: `after-lease:${work.batchId ?? work.certificateId}`,
          payload: work,
          runAt: Math.max(new Date(until).getTime(), (yield* now).getTime()) + 1000,
          maxAttempts: 10
        })
      })

    yield* jobs.handle(GENERATE_JOB, run, { leaseSeconds: LEASE_SECONDS })

    /** Queues the generation of a batch's certificates (in the caller's transaction). */
    const enqueueBatch = (communityId: string, batchId: string, recipients: number) =>
      Effect.forEach(
        Array.from({ length: jobsFor(recipients) }, (_, i) => i),
        (i) =>
          jobs.enqueue({
            kind: GENERATE_JOB,
            key: `${batchId}:${i}`,
            payload: { communityId, batchId, certificateId: null },
            maxAttempts: 10
          }),
        { discard: true }
      )

    /** Queues the generation of one certificate (reissue, retry, automatic issue). */
    const enqueueOne = (communityId: string, certificateId: string, batchId: string | null) =>
      jobs.enqueue({
        kind: GENERATE_JOB,
        key: `certificate:${certificateId}`,
        payload: { communityId, batchId: batchId ?? null, certificateId: batchId === null ? certificateId : null },
        maxAttempts: 10
      }).pipe(Effect.asVoid)

    /** A verification code: 80 random bits (see codes.ts). */
    const newCode = Effect.map(ids.secret(10), (secret) => codeOf(fromBase64Url(secret)!))

    /**
     * Writes a batch and its certificates (in the caller's transaction) and queues their generation.
     * Recipients who already hold a live certificate of the template are skipped by the unique index.
     */
    const openBatch = (
      batch: Pick<BatchRow, "id" | "communityId" | "spaceId" | "templateId" | "createdByProfileId" | "source">,
      rows: ReadonlyArray<NewCertificate>,
      at: Date
    ) =>
      Effect.gen(function*() {
        yield* repo.insertBatch({
          ...batch,
          status: "queued",
          total: rows.length,
          skipped: 0,
          createdAt: at,
          updatedAt: at
        })
        const inserted = yield* repo.insertCertificates(rows)
        const skipped = rows.length - inserted.length
        if (skipped > 0) {
          yield* sql`UPDATE certificate_batches SET skipped = ${skipped} WHERE id = ${batch.id}`.pipe(Effect.orDie)
        }
        if (inserted.length === 0) yield* repo.countBatch(batch.id, {}, at)
        else yield* enqueueBatch(batch.communityId, batch.id, inserted.length)
        return inserted.length
      })

    /**
     * Automatic issuing (`courses.completed`, `events.attended`): when the space's rule is the one the
     * job stands for, a batch of one from each active template of the space. Idempotent: a holder is
     * skipped (one certificate per template and person, whichever event of the space they attended).
     */
    const automatic = (
      issuer: "course_completion" | "event_attendance",
      event: { readonly communityId: CommunityId; readonly spaceId: SpaceId; readonly profileId: ProfileId }
    ) =>
      Effect.gen(function*() {
        const rule = yield* repo.rule(event.communityId, event.spaceId)
        if (Option.isNone(rule) || rule.value.issuer !== issuer) return
        const spaceTitle = rule.value.spaceTitle
        const recipient = (yield* memberships.recipients(event.communityId, [event.profileId]))[0]
        if (recipient === undefined) return
        const templates = yield* repo.listTemplates(event.communityId, {
          spaceId: event.spaceId,
          status: "active",
          limit: 10
        })
        yield* transactional(sql)(Effect.forEach(templates, (template) =>
          Effect.gen(function*() {
            const at = yield* now
            const batchId = yield* ids.next
            yield* openBatch({
              id: batchId,
              communityId: event.communityId,
              spaceId: event.spaceId,
              templateId: template.id,
              createdByProfileId: null,
              source: issuer
            }, [{
              id: yield* ids.next,
              communityId: event.communityId,
              spaceId: event.spaceId,
              templateId: template.id,
              batchId,
              profileId: recipient.profileId,
              accountId: recipient.accountId,
              recipientName: recipient.fullName,
              recipientEmail: recipient.email,
              spaceTitle,
              code: yield* newCode,
              supersedesId: null,
              createdAt: at,
              updatedAt: at
            }], at)
          }), { discard: true }))
      })

    yield* jobs.handle(
      COURSE_COMPLETED_JOB,
      (payload) =>
        Effect.flatMap(
          Schema.decodeUnknown(CourseCompleted)(payload).pipe(Effect.orDie),
          (event) => automatic("course_completion", event)
        )
    )
    yield* jobs.handle(
      EVENT_ATTENDED_JOB,
      (payload) =>
        Effect.flatMap(
          Schema.decodeUnknown(EventAttended)(payload).pipe(Effect.orDie),
          (event) => automatic("event_attendance", event)
        )
    )

    /** Writes the recipient's e-mail to the outbox again (resend-email). */
    const mail = (row: CertificateRow, title: string) => mailer.send(mailOf(row, title))

    return { enqueueBatch, enqueueOne, run, mail, newCode, openBatch }
  }),
  dependencies: [CertificatesRepo.Default, Rendering.Default]
}) {}
