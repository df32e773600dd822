import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { BlobStore } from "../platform/BlobStore"
import { Jobs } from "../platform/Jobs"
import type { DataSubject, ErasureStep } from "../privacy/PersonalData"
import { imageVariants } from "./render/variants"
import { imageKeyOf, pdfKeyOf } from "./Rendering"

/** Removes the stored files of erased certificates (they show the recipient's name). */
export const ERASED_FILES_JOB = "certificates.eraseFiles"

const FilesPayload = Schema.Struct({
  certificates: Schema.Array(Schema.Struct({ communityId: Schema.String, id: Schema.String }))
})
const decodeFiles = Schema.decodeUnknown(FilesPayload)
const decodeErased = Schema.decodeUnknown(
  Schema.Array(Schema.Struct({ communityId: Schema.String, id: Schema.String }))
)

/**
 * Certificates' part of an erasure. Issued certificates stay (their code still verifies: a third party
 * may check one it was shown), with the copies of the person made at issue pseudonymised: the
 * recipient's name becomes the profile's former-member name (communities' step runs first) and the e-mail is erased. Their files (the PDF and the rendered images), which show the
 * name, are removed from the blob store by a job written in the erasure's transaction
 * (`certificates.eraseFiles`, idempotent); the certificate has no file afterwards (`pdf_key` null).
 */
export const certificatesErasure = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const jobs = yield* Jobs
  const blobs = yield* BlobStore

  yield* jobs.handle(
    ERASED_FILES_JOB,
    (payload) =>
      Effect.flatMap(decodeFiles(payload), ({ certificates }) =>
        Effect.forEach(certificates, (row) =>
          Effect.forEach(
            [pdfKeyOf(row), ...imageVariants.map((variant) => imageKeyOf(row, variant))],
            blobs.remove,
            { discard: true }
          ), { discard: true }))
  )

  const erase = (subject: DataSubject) =>
    Effect.gen(function*() {
      // the profile's name, pseudonymised by communities' step (which runs before this one)
      const erased = yield* sql`UPDATE certificates t SET
          recipient_name = m.full_name, recipient_email = '', pdf_key = NULL, updated_at = now()
        FROM member_cards m
        WHERE m.id = t.profile_id AND m.community_id = t.community_id AND t.account_id = ${subject.accountId}
          AND (t.recipient_email <> '' OR t.pdf_key IS NOT NULL OR t.recipient_name <> m.full_name)
        RETURNING t.community_id, t.id`.pipe(Effect.flatMap(decodeErased), Effect.orDie)
      if (erased.length === 0) return
      yield* jobs.enqueue({ kind: ERASED_FILES_JOB, payload: { certificates: erased } })
    })

  return {
    feature: "certificates",
    keeps:
      "issued certificates keep their verification code, course and date (a third party may still verify one it was shown), with the recipient's name replaced by the former-member name and the e-mail erased.",
    erase
  } satisfies ErasureStep
})
