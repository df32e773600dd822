import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, Redacted, Schema } from "effect"
import { BlobStore } from "../platform/BlobStore"
import { type JobRun, Jobs } from "../platform/Jobs"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { transactional } from "../sql/transaction"
import { EXPORT_VALID_MS } from "./exportPolicy"
import { exportReadme } from "./exportReadme"
import { ExportsRepo } from "./ExportsRepo"
import { downloadLink, exportLinkKey } from "./exportToken"
import { PersonalData } from "./PersonalData"
import { jsonArray, textBytes, zipStream } from "./zip"

/** The job that builds an export's ZIP; its key is the export id. */
export const EXPORT_JOB = "privacy.export"
/** The job that removes an export's file when it expires, due at its `expires_at`. */
export const EXPORT_EXPIRY_JOB = "privacy.exportExpiry"

/** A building job holds its claim this long (an export of a large account takes minutes). */
const BUILD_LEASE_SECONDS = 1800
const VALID_DAYS = EXPORT_VALID_MS / (24 * 3600_000)

const decodePayload = Schema.decodeUnknown(Schema.Struct({ exportId: Schema.UUID }))

/** Where an export's ZIP is kept: written again, whole, by a retried job. */
export const exportBlobKey = (accountId: string, exportId: string) => `exports/${accountId}/${exportId}.zip`

/**
 * The jobs of data exports. Building: marks the export `running`, streams the ZIP (`README.txt`, then
 * one JSON file per `PersonalData.files` entry, each written record by record as it is read) straight
 * into the blob store, then in one transaction marks it `ready` (expiring 7 days later), queues its
 * expiry and e-mails the account the download link; the last failed attempt marks it `failed`.
 * Expiry: removes the file and marks the export `expired`.
 */
export const ExportJobs = Layer.scopedDiscard(Effect.gen(function*() {
  const jobs = yield* Jobs
  const repo = yield* ExportsRepo
  const blobs = yield* BlobStore
  const personalData = yield* PersonalData
  const mailer = yield* Mailer
  const options = yield* Options
  const sql = yield* SqlClient.SqlClient
  const linkKey = exportLinkKey(Redacted.value(options.jwtSecret))

  const mail = (to: string, link: string, expiresAt: Date) =>
    mailer.send({
      to,
      kind: "data-export",
      subject: "Seus dados estão prontos / Your data export is ready",
      text: `A exportação dos seus dados está pronta. Baixe o arquivo ZIP por este link, válido até ` +
        `${expiresAt.toISOString()} (${VALID_DAYS} dias):\n${link}\n\n` +
        `The export of your data is ready. Download the ZIP file with this link, valid until ` +
        `${expiresAt.toISOString()} (${VALID_DAYS} days):\n${link}\n\n` +
        `Se não foi você quem pediu, troque sua senha. / If you did not ask for it, change your password.\n`
    })

  const build = (exportId: string) =>
    Effect.gen(function*() {
      const started = yield* repo.running(exportId)
      // ready, failed or expired already (a repeated run), or no longer there
      if (Option.isNone(started)) return
      const row = started.value
      const subject = yield* personalData.subjectOf(row.accountId)
      const madeAt = new Date(yield* Clock.currentTimeMillis)
      const key = exportBlobKey(row.accountId, row.id)
      const entries = [
        { name: "README.txt", bytes: textBytes(exportReadme(personalData.files, madeAt, VALID_DAYS)) },
        ...personalData.files.map((file) => ({ name: file.name, bytes: jsonArray(file.records(subject)) }))
      ]
      const size = yield* blobs.putStream(key, zipStream(entries, madeAt), "application/zip")
      const readyAt = new Date(yield* Clock.currentTimeMillis)
      const expiresAt = new Date(readyAt.getTime() + EXPORT_VALID_MS)
      const done = yield* transactional(sql)(Effect.gen(function*() {
        const ready = yield* repo.ready(exportId, key, size, readyAt, expiresAt)
        if (Option.isNone(ready)) return false
        yield* jobs.enqueue({
          kind: EXPORT_EXPIRY_JOB,
          key: exportId,
          payload: { exportId },
          runAt: expiresAt.getTime()
        })
        const email = yield* repo.emailOf(row.accountId)
        if (Option.isSome(email)) {
          yield* mail(
            email.value,
            downloadLink(options.publicBaseUrl, linkKey, { exportId, expiresAt: +expiresAt }),
            expiresAt
          )
        }
        return true
      }))
      // the export moved on while its file was written (an erasure): the file goes
      if (!done) yield* blobs.remove(key)
    })

  const run = (payload: unknown, attempt: JobRun) =>
    Effect.flatMap(decodePayload(payload), ({ exportId }) =>
      build(exportId).pipe(
        Effect.onError(() =>
          attempt.attempt >= attempt.maxAttempts ? Effect.asVoid(repo.failed(exportId)) : Effect.void
        )
      ))

  const expire = (payload: unknown) =>
    Effect.gen(function*() {
      const { exportId } = yield* decodePayload(payload)
      const row = yield* repo.byId(exportId)
      if (Option.isNone(row) || row.value.status !== "ready") return
      if (row.value.blobKey !== null) yield* blobs.remove(row.value.blobKey)
      yield* repo.expired(exportId)
    })

  yield* jobs.handle(EXPORT_JOB, run, { leaseSeconds: BUILD_LEASE_SECONDS })
  yield* jobs.handle(EXPORT_EXPIRY_JOB, expire)
}))
