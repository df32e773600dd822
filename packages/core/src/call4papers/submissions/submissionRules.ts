import { Effect, Schema } from "effect"
import { conflict, fieldError, forbidden } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { Uuid } from "../../domain/Ids"
import type { PageQuery } from "../../domain/Pagination"
import type { Message } from "../../domain/Text"
import { type CallRolesOf, type CallRow } from "../calls/CallRoles"
import { requireOrganiser } from "../calls/Policy"
import { SubmissionMessages as M } from "./messages"
import { type SubmissionStatus } from "./Policy"
import { type SpeakerRow, type SubmissionRow } from "./Repo"
import { submissionView } from "./view"

/** Lists are in id order (UUIDv7: creation order); the cursor is the last id. */
export const IdCursor = Schema.Tuple(Uuid)
export const byId = (row: { readonly id: string }) => [row.id]

export interface NewSubmissionInput {
  readonly title: string
  readonly abstract: string
  readonly trackId?: string | null | undefined
  readonly coSpeakers?: ReadonlyArray<string> | undefined
}

export interface SubmissionChangesInput {
  readonly title?: string | undefined
  readonly abstract?: string | undefined
  readonly trackId?: string | null | undefined
  readonly coSpeakers?: ReadonlyArray<string> | undefined
}

export interface SubmissionQuery extends PageQuery {
  readonly status?: SubmissionStatus | undefined
  readonly trackId?: string | undefined
}

export interface OfferInput {
  readonly format?: string | null | undefined
  readonly durationMinutes?: number | null | undefined
  readonly trackId?: string | null | undefined
  readonly fee?: number | null | undefined
  readonly currency?: string | null | undefined
  readonly note?: string | null | undefined
}

/** Everything one caller is on one submission. */
export interface Seen {
  readonly submission: SubmissionRow
  readonly call: CallRow
  readonly roles: CallRolesOf
  /** Every speaker row, whatever its status (only `accepted` ones are speakers). */
  readonly speakers: ReadonlyArray<SpeakerRow>
  /** The caller proposed it (own or acted profile). */
  readonly proposer: boolean
  /** The caller is its proposer or one of its accepted co-speakers. */
  readonly speaker: boolean
  /** The caller is named as a co-speaker and has not answered yet (`invited`). */
  readonly invitee: boolean
  /** The caller reviews the submission's track (accepted invitation). */
  readonly trackReviewer: boolean
}

export const selves = (member: Member): Array<string> => [member.profileId, member.actingProfileId]

/** Only accepted rows are speakers: an invited or declined co-speaker never agreed (or refused). */
export const acceptedOnly = (rows: ReadonlyArray<SpeakerRow>) => rows.filter((row) => row.status === "accepted")

/**
 * The organisation's side of a submission (its offers, accepting the speaker's, declining,
 * deciding) is an organiser's who is not one of its speakers: as no one reviews or votes on their
 * own proposal, no one decides on it either (403); another organiser of the call does.
 */
export const requireOrganisationSide = (seen: Seen) =>
  Effect.flatMap(
    requireOrganiser(seen.roles),
    () => seen.speaker ? Effect.fail(forbidden(M.ownSubmissionDecision)) : Effect.void
  )

/** Organisers, the track's reviewers and the speakers see a submission; others 403. */
export const readable = (seen: Seen) =>
  seen.roles.organiser || seen.trackReviewer || seen.speaker
    ? Effect.void
    : Effect.fail(forbidden(M.cannotSee))

/** A reviewer (not an organiser, not a speaker) of a call with anonymous reviews sees no speakers. */
export const showsSpeakers = (call: CallRow, roles: CallRolesOf, speaker: boolean) =>
  !call.anonymousReviews || roles.organiser || speaker

/** The proposer and organisers see invited and declined co-speakers (with their status); others the accepted. */
export const speakersFor = (speakers: ReadonlyArray<SpeakerRow>, everyone: boolean) =>
  everyone ? speakers : acceptedOnly(speakers)

export const viewOf = (seen: Seen) =>
  submissionView(
    seen.submission,
    speakersFor(seen.speakers, seen.proposer || seen.roles.organiser),
    showsSpeakers(seen.call, seen.roles, seen.speaker || seen.invitee)
  )

export const requireProposer = (seen: Seen) => seen.proposer ? Effect.void : Effect.fail(forbidden(M.onlyProposer))

/**
 * Terms bind the speaker only with their own consent: the proposer's own profile, not staff acting as
 * it with X-ProfileId (as invitations are answered by their holder only; spec §5, roles not lent).
 */
export const requireOwnConsent = (member: Member, submission: SubmissionRow) =>
  submission.proposerProfileId === member.profileId
    ? Effect.void
    : Effect.fail(forbidden(M.speakerOwnConsent))

export const requireVoting = (call: CallRow) =>
  call.communityVoting
    ? Effect.void
    : Effect.fail(conflict(M.votingOff, [fieldError("communityVoting", M.votingOff)]))

/** Organisers and the speakers follow a negotiation; others 403. */
export const requireParty = (s: Seen) =>
  s.roles.organiser || s.speaker ? Effect.void : Effect.fail(forbidden(M.onlySpeakerOrOrganiser))

export const refuse = <Code extends string>(text: Message<Code>) =>
  Effect.fail(conflict(text, [fieldError("status", text)]))
