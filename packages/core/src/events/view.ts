import type { EventRow, ParticipantRow } from "./Repo"

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

const addressOf = (row: EventRow) =>
  row.street === null && row.number === null && row.city === null && row.country === null &&
    row.complement === null && row.neighbourhood === null && row.state === null && row.postalCode === null
    ? null
    : {
      street: row.street,
      number: row.number,
      complement: row.complement,
      neighbourhood: row.neighbourhood,
      city: row.city,
      state: row.state,
      postalCode: row.postalCode,
      country: row.country
    }

/** One line for a calendar's LOCATION: the address parts that are set, in postal order. */
export const addressLine = (row: EventRow) =>
  [
    [row.street, row.number].filter(Boolean).join(", "),
    row.complement,
    row.neighbourhood,
    [row.city, row.state].filter(Boolean).join(" - "),
    row.postalCode,
    row.country
  ].filter((part) => part !== null && part !== "").join(", ")

/** How an event travels on the wire; `joinUrl` only when the viewer may see it. */
export const eventView = (row: EventRow, showJoinUrl: boolean) => ({
  id: row.id,
  communityId: row.communityId,
  spaceId: row.spaceId,
  hostProfileId: row.hostProfileId,
  title: row.title,
  slug: row.slug,
  description: row.description,
  type: row.type,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  timezone: row.timezone,
  capacity: row.capacity,
  categoryId: row.categoryId,
  joinUrl: showJoinUrl ? row.joinUrl : null,
  address: addressOf(row),
  streamStatus: row.streamStatus,
  streamStartedAt: iso(row.streamStartedAt),
  streamEndedAt: iso(row.streamEndedAt),
  counts: { going: row.going, waitlisted: row.waitlisted },
  seatsLeft: row.capacity === null ? null : Math.max(0, row.capacity - row.going),
  hidden: row.hidden,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const participantView = (row: ParticipantRow) => ({
  profileId: row.profileId,
  fullName: row.fullName,
  avatarUrl: row.avatarUrl,
  status: row.status,
  joinedAt: row.joinedAt.toISOString(),
  checkedInAt: iso(row.checkedInAt)
})
