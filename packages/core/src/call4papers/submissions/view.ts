import { allowedSubmissionMoves } from "./Policy"
import type { OfferRow, ReviewRow, SpeakerRow, SubmissionRow, TallyRow, VersionRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** Mean (two decimals, null without entries), count and distribution 1..5 of a tally. */
export const tallyView = (tally: TallyRow | undefined) => {
  const count = tally?.count ?? 0
  return {
    count,
    mean: count === 0 ? null : Math.round((tally!.sum * 100) / count) / 100,
    distribution: {
      "1": tally?.s1 ?? 0,
      "2": tally?.s2 ?? 0,
      "3": tally?.s3 ?? 0,
      "4": tally?.s4 ?? 0,
      "5": tally?.s5 ?? 0
    }
  }
}

/**
 * A submission on the wire. `showSpeakers: false` (a reviewer of a call with anonymous reviews)
 * leaves the proposer and co-speakers out. `speakers` are those this viewer may see: the proposer and
 * organisers get invited and declined co-speakers too (each with its `status`), others the accepted.
 */
export const submissionView = (
  row: SubmissionRow,
  speakers: ReadonlyArray<SpeakerRow>,
  showSpeakers = true
) => ({
  id: row.id,
  callId: row.callId,
  callTitle: row.callTitle,
  callSlug: row.callSlug,
  trackId: row.trackId,
  trackName: row.trackName,
  title: row.title,
  abstract: row.abstract,
  status: row.status,
  version: row.version,
  proposer: showSpeakers ? { profileId: row.proposerProfileId, fullName: row.proposerName } : null,
  coSpeakers: showSpeakers
    ? speakers
      .filter((speaker) => speaker.submissionId === row.id && speaker.role === "co_speaker")
      .map((speaker) => ({
        profileId: speaker.profileId,
        fullName: speaker.fullName,
        avatarUrl: speaker.avatarUrl,
        status: speaker.status
      }))
    : [],
  allowedMoves: allowedSubmissionMoves(row.status),
  decisionNote: row.decisionNote,
  submittedAt: iso(row.submittedAt),
  decidedAt: iso(row.decidedAt),
  confirmedAt: iso(row.confirmedAt),
  withdrawnAt: iso(row.withdrawnAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const versionView = (row: VersionRow) => ({
  version: row.version,
  title: row.title,
  abstract: row.abstract,
  trackId: row.trackId,
  coSpeakerProfileIds: row.coSpeakerProfileIds,
  createdAt: row.createdAt.toISOString()
})

export const offerView = (row: OfferRow) => ({
  id: row.id,
  version: row.version,
  side: row.side,
  authorProfileId: row.authorProfileId,
  authorName: row.authorName,
  status: row.status,
  terms: {
    format: row.format,
    durationMinutes: row.durationMinutes,
    trackId: row.trackId,
    trackName: row.trackName,
    fee: row.fee === null ? null : Number(row.fee),
    currency: row.currency,
    note: row.note
  },
  createdAt: row.createdAt.toISOString(),
  closedAt: iso(row.closedAt)
})

/** A review; `named: false` (proposers, and reviewers of anonymous calls) leaves the reviewer out. */
export const reviewView = (row: ReviewRow, named: boolean) => ({
  reviewerProfileId: named ? row.reviewerProfileId : null,
  reviewerName: named ? row.reviewerName : null,
  score: row.score,
  comment: row.comment,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
