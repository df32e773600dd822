import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Redacted } from "effect"
import { gone, notFound, tooManyRequests } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { BlobStore } from "../platform/BlobStore"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { Options } from "../platform/Options"
import { traced } from "../platform/traced"
import { atomic } from "../sql/transaction"
import { EXPORT_JOB } from "./exportJob"
import { CAP_WINDOW_MS, EXPORTS_PER_WINDOW } from "./exportPolicy"
import { type ExportRow, ExportsRepo } from "./ExportsRepo"
import { downloadLink, exportLinkKey, verifyExportLink } from "./exportToken"
import { PrivacyMessages as M } from "./messages"

/** An export as its status route answers it. */
export interface ExportView {
  readonly id: string
  readonly status: ExportRow["status"]
  readonly createdAt: string
  readonly readyAt: string | null
  readonly expiresAt: string | null
  /** The ZIP's size in bytes, once ready. */
  readonly size: number | null
  /** The signed download link (the one e-mailed), while ready. */
  readonly downloadUrl: string | null
}

/** Attempts of the job that builds an export before it is marked `failed`. */
export const EXPORT_ATTEMPTS = 3

/**
 * Data exports (platform.md "Members' data rights"): an account asks for a ZIP of what Roda holds of
 * it, a job builds it (`exportJob.ts`), its status shows the download link, and the link (signed,
 * valid 7 days) serves the file.
 */
export class Exports extends Effect.Service<Exports>()("@roda/core/PrivacyExports", {
  effect: Effect.gen(function*() {
    const repo = yield* ExportsRepo
    const jobs = yield* Jobs
    const ids = yield* Ids
    const blobs = yield* BlobStore
    const options = yield* Options
    const sql = yield* SqlClient.SqlClient
    const key = exportLinkKey(Redacted.value(options.jwtSecret))

    const view = (row: ExportRow): ExportView => ({
      id: row.id,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      readyAt: row.readyAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      size: row.size,
      downloadUrl: row.status === "ready" && row.expiresAt !== null
        ? downloadLink(options.publicBaseUrl, key, { exportId: row.id, expiresAt: row.expiresAt.getTime() })
        : null
    })

    /**
     * A new export of the caller's data, its job queued in the same transaction; the one under way
     * when there is one (`created: false`). At most `EXPORTS_PER_WINDOW` in 24 hours (429).
     */
    const request = traced("Exports.request")(function*(account: Account) {
      const under = yield* repo.open(account.id)
      if (Option.isSome(under)) return { created: false, export: view(under.value) }
      const now = yield* Clock.currentTimeMillis
      const recent = yield* repo.recent(account.id, new Date(now - CAP_WINDOW_MS))
      if (recent.used >= EXPORTS_PER_WINDOW) {
        const oldest = recent.oldest?.getTime() ?? now
        return yield* Effect.fail(tooManyRequests(M.exportLimit, (oldest + CAP_WINDOW_MS - now) / 1000))
      }
      const id = yield* ids.next
      const createdAt = new Date(now)
      if (!(yield* repo.insert({ id, accountId: account.id, createdAt }))) {
        // another request of the account wrote one first
        const other = yield* repo.open(account.id)
        if (Option.isSome(other)) return { created: false, export: view(other.value) }
        return yield* Effect.dieMessage("data export neither written nor under way")
      }
      yield* jobs.enqueue({ kind: EXPORT_JOB, key: id, payload: { exportId: id }, maxAttempts: EXPORT_ATTEMPTS })
      return {
        created: true,
        export: view({
          id,
          accountId: account.id,
          status: "pending",
          blobKey: null,
          size: null,
          createdAt,
          readyAt: null,
          expiresAt: null
        })
      }
    }, atomic(sql))

    /** The caller's export; another account's is not found. */
    const status = traced("Exports.status")(function*(account: Account, id: string) {
      const row = yield* repo.find(account.id, id.toLowerCase())
      if (Option.isNone(row)) return yield* Effect.fail(notFound(M.exportNotFound))
      return view(row.value)
    })

    /**
     * The file a download link names: 404 for a token the server did not sign (or of another export),
     * 410 once the link or the export expired.
     */
    const download = traced("Exports.download")(function*(id: string, token: string) {
      const grant = verifyExportLink(key, token)
      if (grant === undefined || grant.exportId !== id.toLowerCase()) {
        return yield* Effect.fail(notFound(M.exportLinkInvalid))
      }
      if ((yield* Clock.currentTimeMillis) >= grant.expiresAt) return yield* Effect.fail(gone(M.exportLinkExpired))
      const row = yield* repo.byId(grant.exportId)
      if (Option.isNone(row)) return yield* Effect.fail(notFound(M.exportLinkInvalid))
      if (row.value.status === "expired") return yield* Effect.fail(gone(M.exportLinkExpired))
      if (
        row.value.status !== "ready" || row.value.blobKey === null ||
        row.value.expiresAt?.getTime() !== grant.expiresAt
      ) return yield* Effect.fail(notFound(M.exportLinkInvalid))
      const blob = yield* blobs.get(row.value.blobKey)
      if (Option.isNone(blob)) return yield* Effect.fail(gone(M.exportLinkExpired))
      return {
        blob: blob.value,
        filename: `roda-data-export-${row.value.createdAt.toISOString().slice(0, 10)}.zip`,
        expiresAt: grant.expiresAt
      }
    })

    return { request, status, download }
  })
}) {}
