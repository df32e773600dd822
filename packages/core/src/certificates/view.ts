import { allowedTemplateMoves } from "./Policy"
import type { BatchRow, CertificateView, TemplateRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

export const templateView = (row: TemplateRow) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  name: row.name,
  title: row.title,
  body: row.body,
  fontId: row.fontId,
  orientation: row.orientation,
  pageSize: row.pageSize,
  background: row.background,
  hasLogo: row.logoKey !== null,
  hasSignature: row.signatureKey !== null,
  status: row.status,
  allowedMoves: allowedTemplateMoves(row.status),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const batchView = (row: BatchRow) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  templateId: row.templateId,
  source: row.source,
  status: row.status,
  total: row.total,
  issued: row.issued,
  failed: row.failed,
  skipped: row.skipped,
  pending: row.total - row.issued - row.failed - row.skipped,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  finishedAt: iso(row.finishedAt)
})

/** A certificate on the wire; `lastError` only for staff. */
export const certificateView = (row: CertificateView, base: string, staff: boolean) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  spaceTitle: row.spaceTitle,
  templateId: row.templateId,
  templateName: row.templateName,
  title: row.title,
  batchId: row.batchId,
  profileId: row.profileId,
  recipientName: row.recipientName,
  code: row.code,
  status: row.status,
  attempts: row.attempts,
  lastError: staff ? row.lastError : null,
  indexing: row.indexing,
  issuedAt: iso(row.issuedAt),
  revokedAt: iso(row.revokedAt),
  revokeReason: row.revokeReason,
  supersededById: row.supersededById,
  supersededByCode: row.supersededByCode,
  supersedesId: row.supersedesId,
  verifyUrl: `${base}/certificates/${row.code}`,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
