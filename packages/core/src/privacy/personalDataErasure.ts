import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { BlobStore } from "../platform/BlobStore"
import { Jobs } from "../platform/Jobs"
import { movesInto } from "./exportPolicy"
import type { DataSubject, ErasureStep } from "./PersonalData"

/** Removes the files of erased exports (`keys`); removing a missing file is no error, so a retry is safe. */
export const ERASED_EXPORTS_JOB = "privacy.eraseExportFiles"
const ErasedFiles = Schema.Struct({ keys: Schema.Array(Schema.String) })
const decodeFiles = Schema.decodeUnknown(ErasedFiles)
const decodeKeys = decodeRows(Schema.Struct({ blobKey: Schema.NullOr(Schema.String) }))

/**
 * Privacy's own part of an erasure: the account's data exports are personal data too. A ready one
 * expires now (its download link answers 410) and its ZIP is removed by a job written in the erasure's
 * transaction; one being built fails (its job then finds it moved on and removes what it wrote). The
 * rows stay, without their file, so the caps and the status route keep working. A second run changes
 * nothing.
 */
export const privacyErasure = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const jobs = yield* Jobs
  const blobs = yield* BlobStore

  yield* jobs.handle(
    ERASED_EXPORTS_JOB,
    (payload) =>
      Effect.flatMap(decodeFiles(payload), ({ keys }) => Effect.forEach(keys, blobs.remove, { discard: true }))
  )

  const erase = (subject: DataSubject) =>
    Effect.gen(function*() {
      // `old.blob_key`: the key before this UPDATE cleared it
      const expired = yield* sql`UPDATE data_exports e SET status = 'expired', blob_key = NULL, expires_at = now()
        FROM data_exports old
        WHERE old.id = e.id AND e.account_id = ${subject.accountId} AND e.status IN ${sql.in(movesInto("expired"))}
        RETURNING old.blob_key`.pipe(Effect.flatMap(decodeKeys))
      yield* sql`UPDATE data_exports SET status = 'failed', blob_key = NULL
        WHERE account_id = ${subject.accountId} AND status IN ${sql.in(movesInto("failed"))}`
      const keys = expired.flatMap((row) => row.blobKey === null ? [] : [row.blobKey])
      if (keys.length > 0) yield* jobs.enqueue({ kind: ERASED_EXPORTS_JOB, payload: { keys } })
    }).pipe(Effect.orDie)

  return {
    feature: "privacy",
    erase
  } satisfies ErasureStep
})
