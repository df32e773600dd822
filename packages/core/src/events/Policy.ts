import { Effect } from "effect"
import { conflict, fieldError } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { isStaff } from "../domain/Role"
import { type Text, text } from "../domain/Text"
import { eventMessages as M } from "./messages"

export const eventTypes = ["online", "in_person"] as const
export type EventType = typeof eventTypes[number]
export const streamStatuses = ["idle", "live", "ended"] as const
export type StreamStatus = typeof streamStatuses[number]
export const participantStatuses = ["going", "waitlisted", "cancelled"] as const
export type ParticipantStatus = typeof participantStatuses[number]

/**
 * Address parts an in-person event needs (spec §2: street, number, city); the others, country included,
 * are optional. Online events need none (an address sent with one is kept). There is no hybrid type.
 */
export const requiredAddressParts = ["street", "number", "city"] as const

/** The event categories (`GET /api/events/categories`); an event's `categoryId` is one of these ids. */
export const eventCategories: ReadonlyArray<{ readonly id: string; readonly name: Text }> = [
  { id: "meetup", name: text("Encontro", "Meetup") },
  { id: "workshop", name: text("Oficina", "Workshop") },
  { id: "webinar", name: text("Webinar", "Webinar") },
  { id: "live", name: text("Live", "Live stream") },
  { id: "conference", name: text("Conferência", "Conference") },
  { id: "class", name: text("Aula", "Class") },
  { id: "networking", name: text("Networking", "Networking") },
  { id: "other", name: text("Outro", "Other") }
]

export const isCategory = (id: string) => eventCategories.some((category) => category.id === id)

/**
 * Stream states (design/states.md "Event participation"): `idle -> live` (start-stream),
 * `live -> ended` (stop-stream). `ended` is final.
 */
const streamTransitions: Record<StreamStatus, ReadonlyArray<StreamStatus>> = {
  idle: ["live"],
  live: ["ended"],
  ended: []
}

export const allowedStreamMoves = (from: StreamStatus): ReadonlyArray<StreamStatus> => streamTransitions[from]

/** 409 with `param: "status"` and the allowed moves, unless `from -> to` is allowed. */
export const checkStreamMove = (from: StreamStatus, to: StreamStatus) => {
  const allowed = allowedStreamMoves(from)
  if (allowed.includes(to)) return Effect.void
  const message = M.streamStatusMove(from, to, allowed)
  return Effect.fail(conflict(message, [fieldError("status", message)]))
}

/**
 * Participation toggle (design/states.md): someone not taking part (no row, or cancelled) asks to
 * join and is `going` while a seat is free, else `waitlisted`; someone going or waitlisted leaves
 * (`cancelled`). A freed seat promotes the oldest waitlisted person (done by the service).
 */
export const nextParticipation = (
  current: ParticipantStatus | undefined,
  seatFree: boolean
): ParticipantStatus =>
  current === "going" || current === "waitlisted" ? "cancelled" : seatFree ? "going" : "waitlisted"

/** Staff (owner, admin, moderator) or the event's host manage an event. */
export const managesEvent = (member: Member, event: { readonly hostProfileId: string }) =>
  isStaff(member.role) || event.hostProfileId === member.profileId
