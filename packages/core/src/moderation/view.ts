import type { CaseRow, LogRow, ReportRow } from "./Repo"

export const reportView = (row: ReportRow) => ({
  id: row.id,
  caseId: row.caseId,
  reporterProfileId: row.reporterProfileId,
  subjectType: row.subjectType,
  subjectId: row.subjectId,
  reason: row.reason,
  note: row.note,
  createdAt: row.createdAt.toISOString()
})

export const caseView = (row: CaseRow) => ({
  id: row.id,
  subject: {
    type: row.subjectType,
    id: row.subjectId,
    excerpt: row.subjectExcerpt,
    author: row.subjectAuthorProfileId === null ? null : { id: row.subjectAuthorProfileId, fullName: row.authorName }
  },
  reportCount: row.reportCount,
  reasons: row.reasons,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  resolution: row.resolution === null
    ? null
    : {
      action: row.resolution,
      note: row.resolutionNote,
      resolvedBy: { id: row.resolvedByProfileId ?? "", fullName: row.resolverName }
    }
})

export const logView = (row: LogRow) => ({
  id: row.id,
  action: row.action,
  actor: { id: row.actorProfileId, fullName: row.actorName },
  subject: { type: row.subjectType, id: row.subjectId, excerpt: row.subjectExcerpt },
  caseId: row.caseId,
  note: row.note,
  until: row.until?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString()
})
