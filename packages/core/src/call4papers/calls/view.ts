import { acceptsSubmissions, type CallRow, type TrackRow } from "./CallRoles"
import { allowedCallMoves } from "./Policy"
import type { EventDateRow, InvitationRow, OwnerRow, ReviewerRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** How a call travels on the wire. */
export const callView = (row: CallRow, now: Date) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  title: row.title,
  slug: row.slug,
  description: row.description,
  status: row.status,
  allowedMoves: allowedCallMoves(row.status),
  opensAt: iso(row.opensAt),
  closesAt: iso(row.closesAt),
  acceptingSubmissions: acceptsSubmissions(row, now),
  communityVoting: row.communityVoting,
  anonymousReviews: row.anonymousReviews,
  createdByProfileId: row.createdByProfileId,
  publishedAt: iso(row.publishedAt),
  closedAt: iso(row.closedAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const trackView = (row: TrackRow) => ({
  id: row.id,
  callId: row.callId,
  name: row.name,
  description: row.description,
  color: row.color,
  position: row.position,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const eventDateView = (row: EventDateRow) => ({
  id: row.id,
  callId: row.callId,
  date: row.date,
  label: row.label,
  startTime: row.startTime,
  endTime: row.endTime,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const ownerView = (row: OwnerRow) => ({
  id: row.id,
  callId: row.callId,
  profileId: row.profileId,
  fullName: row.fullName,
  avatarUrl: row.avatarUrl,
  status: row.status,
  invitedByProfileId: row.invitedByProfileId,
  invitedAt: row.invitedAt.toISOString(),
  respondedAt: iso(row.respondedAt)
})

export const reviewerView = (row: ReviewerRow) => ({ ...ownerView(row), trackId: row.trackId })

export const invitationView = (row: InvitationRow) => ({
  kind: row.kind,
  id: row.id,
  callId: row.callId,
  callTitle: row.callTitle,
  callSlug: row.callSlug,
  spaceId: row.spaceId,
  trackId: row.trackId,
  trackName: row.trackName,
  invitedByProfileId: row.invitedByProfileId,
  invitedAt: row.invitedAt.toISOString()
})
