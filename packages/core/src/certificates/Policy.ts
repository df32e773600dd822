import { Effect } from "effect"
import { conflict, fieldError } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { isStaff } from "../domain/Role"
import { CertificateMessages } from "./messages"

/** Who issues a space's certificates (the space rule): staff only, or also automatically. */
export const issuers = ["staff", "course_completion", "event_attendance"] as const
export type Issuer = typeof issuers[number]

export const templateStatuses = ["draft", "active", "archived"] as const
export type TemplateStatus = typeof templateStatuses[number]

export const certificateStatuses = ["pending", "generating", "issued", "failed", "revoked", "superseded"] as const
export type CertificateStatus = typeof certificateStatuses[number]

export const batchStatuses = ["queued", "processing", "completed", "completed_with_errors"] as const
export type BatchStatus = typeof batchStatuses[number]

export const orientations = ["landscape", "portrait"] as const
export type Orientation = typeof orientations[number]

export const pageSizes = ["A4", "Letter"] as const
export type PageSize = typeof pageSizes[number]

/** Generation attempts before a certificate is `failed` (design/states.md). */
export const MAX_ATTEMPTS = 3

/** Recipients of one batch. */
export const MAX_RECIPIENTS = 1000

/**
 * Templates (spec §3): `draft -> active` (activate), any live state `-> archived` (archive).
 * Duplicate is not a move: it makes a new draft from a template in any state.
 */
const templateTransitions: Record<TemplateStatus, ReadonlyArray<TemplateStatus>> = {
  draft: ["active", "archived"],
  active: ["archived"],
  archived: []
}

/** States in which a template's layout may be edited. */
export const editableTemplateStatuses: ReadonlyArray<TemplateStatus> = ["draft", "active"]

/**
 * Certificates (design/states.md "Certificate and batch"): `pending -> generating -> issued`;
 * `generating -> pending` on error while attempts remain, else `failed`; `failed -> pending` on
 * retry; `issued -> revoked` (final); `issued -> superseded` on reissue (final).
 */
const certificateTransitions: Record<CertificateStatus, ReadonlyArray<CertificateStatus>> = {
  pending: ["generating"],
  generating: ["issued", "pending", "failed"],
  issued: ["revoked", "superseded"],
  failed: ["pending"],
  revoked: [],
  superseded: []
}

/** Only these may be deleted. */
export const deletableStatuses: ReadonlyArray<CertificateStatus> = ["failed", "revoked"]

/** States that carry files (the PDF was rendered). */
export const renderedStatuses: ReadonlyArray<CertificateStatus> = ["issued", "revoked", "superseded"]

/**
 * Batches: `queued -> processing -> completed | completed_with_errors`; a retried certificate
 * reopens its finished batch (`-> processing`).
 */
const batchTransitions: Record<BatchStatus, ReadonlyArray<BatchStatus>> = {
  queued: ["processing", "completed", "completed_with_errors"],
  processing: ["completed", "completed_with_errors"],
  completed: ["processing"],
  completed_with_errors: ["processing"]
}

export const allowedTemplateMoves = (from: TemplateStatus) => templateTransitions[from]
export const allowedCertificateMoves = (from: CertificateStatus) => certificateTransitions[from]
export const allowedBatchMoves = (from: BatchStatus) => batchTransitions[from]

const refuse = (from: string, to: string, allowed: ReadonlyArray<string>) => {
  const message = CertificateMessages.statusMove(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkTemplateMove = (from: TemplateStatus, to: TemplateStatus) =>
  allowedTemplateMoves(from).includes(to) ? Effect.void : refuse(from, to, allowedTemplateMoves(from))

export const checkCertificateMove = (from: CertificateStatus, to: CertificateStatus) =>
  allowedCertificateMoves(from).includes(to) ? Effect.void : refuse(from, to, allowedCertificateMoves(from))

/** The batch status once every recipient is accounted for; `processing` while some are not. */
export const batchOutcome = (counts: { total: number; issued: number; failed: number; skipped: number }) =>
  counts.issued + counts.failed + counts.skipped < counts.total
    ? "processing" as const
    : counts.failed > 0
    ? "completed_with_errors" as const
    : "completed" as const

/** What the caller may do in a space (`GET /api/certificates/spaces/{spaceId}`). */
export const permissionsIn = (member: Member | undefined) => {
  const staff = member !== undefined && isStaff(member.role)
  return {
    canIssue: staff,
    canManageTemplates: staff,
    canSetRule: staff,
    canListIssued: staff,
    canSeeOwn: member !== undefined
  }
}
