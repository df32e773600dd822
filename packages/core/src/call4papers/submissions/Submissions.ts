import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, fieldError, forbidden, invalidField, notFound } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { isUuid, Uuid } from "../../domain/Ids"
import { decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../../domain/Pagination"
import { isStaff } from "../../domain/Role"
import type { Text } from "../../domain/Text"
import { Ids } from "../../platform/Ids"
import { Mailer } from "../../platform/Mailer"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"
import { Access, viewerOfMember } from "../../structure/Access"
import { acceptsSubmissions, CallRoles, type CallRolesOf, type CallRow, isPublicCall } from "../calls/CallRoles"
import { CallMessages } from "../calls/messages"
import { requireOrganiser } from "../calls/Policy"
import { SubmissionMessages as M } from "./messages"
import {
  checkCoSpeakerMove,
  checkSubmissionMove,
  closedToCoSpeakers,
  type CoSpeakerMove,
  MAX_CO_SPEAKERS,
  type OfferSide,
  openStatuses,
  type SubmissionMove,
  type SubmissionStatus
} from "./Policy"
import { type OfferRow, type OfferTerms, type SpeakerRow, type SubmissionRow, SubmissionsRepo } from "./Repo"
import { offerView, reviewView, submissionView, tallyView, versionView } from "./view"

/** Lists are in id order (UUIDv7: creation order); the cursor is the last id. */
const IdCursor = Schema.Tuple(Uuid)

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
interface Seen {
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

const selves = (member: Member) => [member.profileId, member.actingProfileId]

/** Only accepted rows are speakers: an invited or declined co-speaker never agreed (or refused). */
const acceptedOnly = (rows: ReadonlyArray<SpeakerRow>) => rows.filter((row) => row.status === "accepted")

/**
 * Submissions to calls for papers: drafts and their versions, the contextual lists, the speaker
 * bank, reviews, the open community vote and the negotiation of terms (design/states.md "Call for
 * papers"). Organisers (community staff, or accepted owners of the call) manage; reviewers of a track
 * review its submissions; the proposer edits a draft, submits, withdraws and negotiates; any member
 * votes when the call has community voting.
 */
export class Submissions extends Effect.Service<Submissions>()("@roda/core/call4papers/Submissions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SubmissionsRepo
    const calls = yield* CallRoles
    const access = yield* Access
    const ids = yield* Ids
    const mailer = yield* Mailer
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const transaction = transactional(sql)

    const findRow = (communityId: string, id: string) => {
      const value = id.trim().toLowerCase()
      if (!isUuid(value)) return Effect.fail(notFound(M.notFound))
      return Effect.flatMap(
        repo.find(communityId, value),
        Option.match({ onNone: () => Effect.fail(notFound(M.notFound)), onSome: Effect.succeed })
      )
    }

    /**
     * A call the member may see: 404 when gone, of another community, or a draft they do not organise;
     * its space's access rules apply to non-organisers (403 or 404).
     */
    const visibleCall = (member: Member, callId: string) =>
      Effect.gen(function*() {
        const call = yield* calls.callFor(member.communityId, callId)
        const roles = yield* calls.rolesOf(call, member)
        if (!isPublicCall(call) && !roles.organiser) return yield* Effect.fail(notFound(CallMessages.callNotFound))
        if (!roles.organiser) yield* access.readContent(viewerOfMember(member), call.spaceId)
        return { call, roles }
      })

    /**
     * The submission as this member sees it: 404 when absent, of another community, of a deleted call,
     * or someone else's draft (a draft belongs to its speakers alone); for anyone but organisers and
     * speakers, a call back in draft hides it (404) and the space's access rules apply.
     */
    const seen = (member: Member, id: string) =>
      Effect.gen(function*() {
        const submission = yield* findRow(member.communityId, id)
        const call = yield* calls.callFor(member.communityId, submission.callId)
        const roles = yield* calls.rolesOf(call, member)
        const speakers = yield* repo.speakersOf(member.communityId, [submission.id])
        const me = selves(member)
        const speaker = acceptedOnly(speakers).some((row) => me.includes(row.profileId))
        // a pending invitee reads what they are asked to join (and nothing else of the speakers' part)
        const invitee = speakers.some((row) => row.status === "invited" && me.includes(row.profileId))
        if (submission.status === "rascunho" && !speaker && !invitee) return yield* Effect.fail(notFound(M.notFound))
        if (!roles.organiser && !speaker && !invitee) {
          // like the call itself: a draft call is hidden, and the space's access rules apply
          if (!isPublicCall(call)) return yield* Effect.fail(notFound(M.notFound))
          yield* access.readContent(viewerOfMember(member), call.spaceId)
        }
        const result: Seen = {
          submission,
          call,
          roles,
          speakers,
          proposer: me.includes(submission.proposerProfileId),
          speaker,
          invitee,
          trackReviewer: submission.trackId !== null && roles.reviewerTrackIds.includes(submission.trackId)
        }
        return result
      })

    /**
     * The organisation's side of a submission (its offers, accepting the speaker's, declining,
     * deciding) is an organiser's who is not one of its speakers: as no one reviews or votes on their
     * own proposal, no one decides on it either (403); another organiser of the call does.
     */
    const requireOrganisationSide = (seen: Seen) =>
      Effect.flatMap(
        requireOrganiser(seen.roles),
        () => seen.speaker ? Effect.fail(forbidden(M.ownSubmissionDecision)) : Effect.void
      )

    /** Organisers, the track's reviewers and the speakers see a submission; others 403. */
    const readable = (seen: Seen) =>
      seen.roles.organiser || seen.trackReviewer || seen.speaker
        ? Effect.void
        : Effect.fail(forbidden(M.cannotSee))

    /** A reviewer (not an organiser, not a speaker) of a call with anonymous reviews sees no speakers. */
    const showsSpeakers = (call: CallRow, roles: CallRolesOf, speaker: boolean) =>
      !call.anonymousReviews || roles.organiser || speaker

    /** The proposer and organisers see invited and declined co-speakers (with their status); others the accepted. */
    const speakersFor = (speakers: ReadonlyArray<SpeakerRow>, everyone: boolean) =>
      everyone ? speakers : acceptedOnly(speakers)

    const viewOf = (seen: Seen) =>
      submissionView(
        seen.submission,
        speakersFor(seen.speakers, seen.proposer || seen.roles.organiser),
        showsSpeakers(seen.call, seen.roles, seen.speaker || seen.invitee)
      )

    /** The submission re-read after a change, as the member sees it. */
    const fresh = (member: Member, id: string) => Effect.map(seen(member, id), viewOf)

    const requireProposer = (seen: Seen) => seen.proposer ? Effect.void : Effect.fail(forbidden(M.onlyProposer))

    /**
     * Terms bind the speaker only with their own consent: the proposer's own profile, not staff acting as
     * it with X-ProfileId (as invitations are answered by their holder only; spec §5, roles not lent).
     */
    const requireOwnConsent = (member: Member, submission: SubmissionRow) =>
      submission.proposerProfileId === member.profileId
        ? Effect.void
        : Effect.fail(forbidden(M.speakerOwnConsent))

    /** The track, when given, must be a live track of the call (400, param `trackId`). */
    const checkTrack = (call: CallRow, trackId: string | null | undefined) =>
      Effect.gen(function*() {
        if (trackId === undefined || trackId === null) return null
        const track = yield* calls.trackOf(call, trackId)
        if (Option.isNone(track)) return yield* Effect.fail(invalidField("trackId", M.trackUnknown))
        return track.value.id
      })

    /** Co-speakers: distinct active profiles of the community, not the proposer (400, param `coSpeakers`). */
    const checkCoSpeakers = (member: Member, proposerId: string, input: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const wanted = [...new Set(input.map((id) => id.trim().toLowerCase()))]
        if (wanted.includes(proposerId)) return yield* Effect.fail(invalidField("coSpeakers", M.coSpeakerSelf))
        const found = yield* repo.activeProfiles(member.communityId, wanted)
        const missing = wanted.findIndex((id) => !found.includes(id))
        if (missing >= 0) {
          return yield* Effect.fail(invalidField(`coSpeakers`, M.coSpeakerUnknown))
        }
        return wanted.slice(0, MAX_CO_SPEAKERS)
      })

    // e-mail

    const send = (
      communityId: string,
      recipients: ReadonlyArray<string>,
      kind: string,
      subject: string,
      body: string
    ) =>
      Effect.gen(function*() {
        const emails = yield* repo.emailsOf(communityId, recipients)
        yield* Effect.forEach(
          emails,
          (to) => mailer.send({ to, communityId, kind: `call4papers.${kind}`, subject, text: body }),
          { discard: true }
        )
      })

    /** Tells the other side of a move: the proposer, or the organisation (the call's creator and owners). */
    const notify = (submission: SubmissionRow, to: OfferSide, kind: string, what: { pt: string; en: string }) =>
      Effect.gen(function*() {
        const recipients = to === "speaker"
          ? [submission.proposerProfileId]
          : yield* repo.organiserProfiles(submission.communityId, submission.callId)
        yield* send(
          submission.communityId,
          recipients,
          kind,
          `${submission.title}: ${what.pt} / ${what.en}`,
          `Proposta "${submission.title}" na chamada "${submission.callTitle}": ${what.pt}\n\n` +
            `Submission "${submission.title}" to the call "${submission.callTitle}": ${what.en}\n`
        )
      })

    /**
     * Asks each newly named co-speaker for their consent, by e-mail: they are `invited`, not speakers,
     * until they answer with their own token (`co-speaker/accept` or `co-speaker/decline`).
     */
    const inviteCoSpeakers = (
      communityId: string,
      submissionId: string,
      title: string,
      callTitle: string,
      profileIds: ReadonlyArray<string>
    ) =>
      Effect.forEach(profileIds, (profileId) =>
        send(
          communityId,
          [profileId],
          "co-speaker-invitation",
          `Convite de coautoria: ${title} / Co-speaker invitation: ${title}`,
          `Você foi convidado(a) como coautor(a) da proposta "${title}" na chamada "${callTitle}". ` +
            `Você só aparece como palestrante se aceitar: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
            `(ou /co-speaker/decline para recusar).\n\n` +
            `You were invited as a co-speaker of the submission "${title}" to the call "${callTitle}". ` +
            `You are a speaker only if you accept: POST /api/call4papers/submissions/${submissionId}/co-speaker/accept ` +
            `(or /co-speaker/decline to refuse).\n`
        ), { discard: true })

    /**
     * The invited co-speaker answers, with their own token only (staff acting as them with X-ProfileId:
     * 403, as for owner and reviewer invitations). 404 when the caller has no invitation on the
     * submission; 409 when already answered (the transition table), or when accepting a submission that
     * was withdrawn or refused. The submission row is locked, and
     * the answer is a conditional update, so concurrent answers settle once.
     */
    const answerCoSpeaker = (member: Member, id: string, move: CoSpeakerMove) =>
      Effect.gen(function*() {
        const submission = yield* findRow(member.communityId, id)
        const answered = yield* transaction(Effect.gen(function*() {
          const status = yield* repo.lock(member.communityId, submission.id)
          if (status === undefined) return yield* Effect.fail(notFound(M.notFound))
          const rows = (yield* repo.speakersOf(member.communityId, [submission.id])).filter((row) =>
            row.role === "co_speaker"
          )
          const row = rows.find((r) => r.profileId === member.profileId) ??
            rows.find((r) => r.profileId === member.actingProfileId)
          if (row === undefined) return yield* Effect.fail(notFound(M.coSpeakerInvitationNotFound))
          if (row.profileId !== member.profileId) return yield* Effect.fail(forbidden(M.coSpeakerOwnConsent))
          const to = yield* checkCoSpeakerMove(row.status, move)
          // nobody joins a proposal that was withdrawn or refused (declining stays possible)
          if (to === "accepted" && closedToCoSpeakers.includes(status)) {
            const message = M.coSpeakerClosed(status)
            return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
          }
          // no one speaks on a proposal they judged (reviews and votes take the same row lock)
          if (to === "accepted" && (yield* repo.reviewedOrVoted(member.communityId, submission.id, row.profileId))) {
            return yield* Effect.fail(forbidden(M.coSpeakerAfterJudging))
          }
          if (!(yield* repo.answerCoSpeaker(member.communityId, submission.id, row.profileId, to, yield* now))) {
            const again = (yield* repo.speakersOf(member.communityId, [submission.id])).find((r) =>
              r.profileId === row.profileId
            )
            if (again === undefined) return yield* Effect.fail(notFound(M.coSpeakerInvitationNotFound))
            yield* checkCoSpeakerMove(again.status, move)
          }
          return { submissionId: submission.id, profileId: row.profileId, fullName: row.fullName, status: to }
        }))
        yield* notify(
          submission,
          "speaker",
          `co-speaker-${answered.status}`,
          answered.status === "accepted"
            ? { pt: `${answered.fullName} aceitou ser coautor(a).`, en: `${answered.fullName} accepted to co-speak.` }
            : { pt: `${answered.fullName} recusou ser coautor(a).`, en: `${answered.fullName} declined to co-speak.` }
        )
        return { submissionId: answered.submissionId, profileId: answered.profileId, status: answered.status }
      })

    const acceptCoSpeaking = traced("Submissions.acceptCoSpeaking")(function*(member: Member, id: string) {
      return yield* answerCoSpeaker(member, id, "accept")
    })

    const declineCoSpeaking = traced("Submissions.declineCoSpeaking")(function*(member: Member, id: string) {
      return yield* answerCoSpeaker(member, id, "decline")
    })

    // proposals

    const create = traced("Submissions.create")(
      function*(member: Member, callId: string, input: NewSubmissionInput) {
        const { call } = yield* visibleCall(member, callId)
        if (!acceptsSubmissions(call, yield* now)) {
          const message = M.callNotOpen(call.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        const trackId = yield* checkTrack(call, input.trackId)
        const proposerId = member.actingProfileId
        const coSpeakers = yield* checkCoSpeakers(member, proposerId, input.coSpeakers ?? [])
        const id = yield* ids.next
        const at = yield* now
        yield* transaction(Effect.gen(function*() {
          yield* repo.insert({
            id,
            communityId: member.communityId,
            callId: call.id,
            trackId,
            proposerProfileId: proposerId,
            title: input.title,
            abstract: input.abstract,
            createdAt: at,
            updatedAt: at
          })
          yield* repo.setSpeakers(member.communityId, id, proposerId, coSpeakers)
          yield* repo.insertVersion({
            communityId: member.communityId,
            submissionId: id,
            version: 1,
            title: input.title,
            abstract: input.abstract,
            trackId,
            coSpeakerProfileIds: coSpeakers,
            authorProfileId: proposerId,
            createdAt: at
          })
        }))
        yield* inviteCoSpeakers(member.communityId, id, input.title, call.title, coSpeakers)
        return yield* detail(member, id)
      }
    )

    const detail = traced("Submissions.detail")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      // a pending invitee reads the submission they are asked to join (not its reviews or versions)
      if (!s.invitee) yield* readable(s)
      const versions = s.speaker || s.roles.organiser ? yield* repo.versions(member.communityId, s.submission.id) : []
      // an accepted co-speaker reads the names the proposer saved only of those who accepted too
      const accepted = acceptedOnly(s.speakers).map((row) => row.profileId)
      const named = (ids: ReadonlyArray<string>) =>
        s.proposer || s.roles.organiser ? ids : ids.filter((profileId) => accepted.includes(profileId))
      return {
        ...viewOf(s),
        versions: versions.map((row) => versionView({ ...row, coSpeakerProfileIds: named(row.coSpeakerProfileIds) }))
      }
    })

    /** Runs `body` with the submission row locked and re-read, after the state check of `move`. */
    const locked = <A, E, R>(
      member: Member,
      id: string,
      move: SubmissionMove,
      body: (current: SubmissionRow, to: SubmissionStatus, at: Date) => Effect.Effect<A, E, R>
    ) =>
      transaction(Effect.gen(function*() {
        if ((yield* repo.lock(member.communityId, id)) === undefined) return yield* Effect.fail(notFound(M.notFound))
        const current = yield* findRow(member.communityId, id)
        const to = yield* checkSubmissionMove(current.status, move)
        return yield* body(current, to, yield* now)
      }))

    const update = traced("Submissions.update")(
      function*(member: Member, id: string, input: SubmissionChangesInput) {
        const s = yield* seen(member, id)
        if (!s.invitee) yield* readable(s)
        yield* requireProposer(s)
        const trackId = input.trackId === undefined ? s.submission.trackId : yield* checkTrack(s.call, input.trackId)
        const coSpeakers = input.coSpeakers === undefined
          ? s.speakers.filter((row) => row.role === "co_speaker").map((row) => row.profileId)
          : yield* checkCoSpeakers(member, s.submission.proposerProfileId, input.coSpeakers)
        const invited = yield* locked(member, s.submission.id, "edit", (current, _to, at) =>
          Effect.gen(function*() {
            const before = (yield* repo.speakersOf(member.communityId, [current.id])).map((row) => row.profileId)
            const changes = {
              title: input.title ?? current.title,
              abstract: input.abstract ?? current.abstract,
              trackId
            }
            const version = yield* repo.edit(member.communityId, current.id, changes, at)
            if (input.coSpeakers !== undefined) {
              yield* repo.setSpeakers(member.communityId, current.id, current.proposerProfileId, coSpeakers)
            }
            yield* repo.insertVersion({
              communityId: member.communityId,
              submissionId: current.id,
              version,
              ...changes,
              coSpeakerProfileIds: coSpeakers,
              authorProfileId: member.actingProfileId,
              createdAt: at
            })
            const added = input.coSpeakers === undefined ? [] : coSpeakers.filter((id) => !before.includes(id))
            return { title: changes.title, added }
          }))
        yield* inviteCoSpeakers(member.communityId, s.submission.id, invited.title, s.call.title, invited.added)
        return yield* detail(member, s.submission.id)
      }
    )

    const submit = traced("Submissions.submit")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireProposer(s)
      yield* locked(member, s.submission.id, "submit", (current, to, at) =>
        Effect.gen(function*() {
          if (!acceptsSubmissions(s.call, at)) {
            const message = M.callNotOpen(s.call.status)
            return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
          }
          yield* repo.setStatus(member.communityId, current.id, { status: to, submittedAt: at }, at)
          yield* notify(current, "organisation", "submitted", {
            pt: "nova proposta enviada.",
            en: "a new submission was submitted."
          })
        }))
      return yield* fresh(member, s.submission.id)
    })

    const withdraw = traced("Submissions.withdraw")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireProposer(s)
      yield* locked(member, s.submission.id, "withdraw", (current, to, at) =>
        Effect.gen(function*() {
          yield* repo.closeOpenOffer(member.communityId, current.id, "closed", member.actingProfileId, at)
          yield* repo.setStatus(member.communityId, current.id, { status: to, withdrawnAt: at }, at)
          if (current.status !== "rascunho") {
            yield* notify(current, "organisation", "withdrawn", {
              pt: "o palestrante retirou a proposta.",
              en: "the speaker withdrew the submission."
            })
          }
        }))
      return yield* fresh(member, s.submission.id)
    })

    const listOf = (
      member: Member,
      rows: ReadonlyArray<SubmissionRow>,
      limit: number,
      hide?: (row: SubmissionRow) => boolean,
      organiser = false
    ) =>
      Effect.gen(function*() {
        const page = toPage(rows, limit, (row) => [row.id])
        const speakers = yield* repo.speakersOf(member.communityId, page.items.map((row) => row.id))
        const me = selves(member)
        return {
          items: page.items.map((row) =>
            submissionView(
              row,
              speakersFor(speakers, organiser || me.includes(row.proposerProfileId)),
              hide === undefined ? true : !hide(row)
            )
          ),
          pagination: page.pagination
        }
      })

    /** Organisers see every submission but others' drafts; reviewers their tracks'; everyone their own. */
    const list = traced("Submissions.list")(function*(member: Member, callId: string, query: SubmissionQuery) {
      const { call, roles } = yield* visibleCall(member, callId)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, IdCursor)
      const rows = yield* repo.list(member.communityId, call.id, {
        ownProfileId: member.actingProfileId,
        all: roles.organiser,
        trackIds: roles.reviewerTrackIds
      }, {
        after,
        limit,
        status: query.status,
        trackId: query.trackId?.toLowerCase()
      })
      const me = selves(member)
      return yield* listOf(
        member,
        rows,
        limit,
        (row) => !showsSpeakers(call, roles, me.includes(row.proposerProfileId)),
        roles.organiser
      )
    })

    const mine = traced("Submissions.mine")(
      function*(member: Member, callId: string | undefined, query: SubmissionQuery) {
        const call = callId === undefined ? undefined : yield* calls.callFor(member.communityId, callId)
        const limit = query.limit ?? DEFAULT_LIMIT
        const after = yield* decodeCursor(query.cursor, IdCursor)
        const rows = yield* repo.listOwn(member.communityId, member.actingProfileId, call?.id, {
          after,
          limit,
          status: query.status
        })
        return yield* listOf(member, rows, limit)
      }
    )

    // speaker bank

    /**
     * Whose bank the member reads: staff read the whole community's (`undefined`); an accepted owner of
     * a call reads the bank of the calls they own only (their profile id), never other calls' speakers
     * and proposals, which they may not see either (a blind call's reviewer who opens a call of their own
     * must not learn its speakers); anyone else 403.
     */
    const bankScope = (member: Member) =>
      Effect.gen(function*() {
        if (isStaff(member.role)) return undefined
        if (yield* repo.ownsAnyCall(member.communityId, member.profileId)) return member.profileId
        return yield* Effect.fail(forbidden(M.speakersRefused))
      })

    const speakers = traced("Submissions.speakers")(function*(member: Member, query: PageQuery) {
      const ownerProfileId = yield* bankScope(member)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, IdCursor)
      const people = yield* repo.bank(member.communityId, { after, limit, ownerProfileId })
      const page = toPage(people, limit, (row) => [row.profileId])
      const proposals = yield* repo.submissionsOfSpeakers(
        member.communityId,
        page.items.map((row) => row.profileId),
        ownerProfileId
      )
      return {
        items: page.items.map((person) => ({
          profileId: person.profileId,
          fullName: person.fullName,
          avatarUrl: person.avatarUrl,
          submissions: proposals.filter((row) => row.speakerProfileId === person.profileId).map((row) => ({
            id: row.id,
            callId: row.callId,
            callTitle: row.callTitle,
            title: row.title,
            trackName: row.trackName,
            status: row.status,
            role: row.speakerRole === "proposer" ? "proposer" as const : "co_speaker" as const
          }))
        })),
        pagination: page.pagination
      }
    })

    const inviteSpeaker = traced("Submissions.inviteSpeaker")(function*(
      member: Member,
      callId: string,
      input: { readonly profileId: string; readonly message?: string | null | undefined }
    ) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireOrganiser(roles)
      if (call.status !== "published") {
        const message = M.callNotPublished(call.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const profileId = input.profileId.toLowerCase()
      // organisers who are not staff invite from the bank of the calls they own (see `bankScope`)
      const ownerProfileId = roles.staff ? undefined : member.profileId
      if (!(yield* repo.inBank(member.communityId, profileId, ownerProfileId))) {
        return yield* Effect.fail(invalidField("profileId", M.notInBank))
      }
      const id = yield* ids.next
      const at = yield* now
      const inserted = yield* repo.insertInvitation({
        id,
        communityId: member.communityId,
        callId: call.id,
        profileId,
        invitedByProfileId: member.profileId,
        message: input.message ?? null,
        createdAt: at
      })
      if (!inserted) {
        return yield* Effect.fail(conflict(M.alreadyInvited, [fieldError("profileId", M.alreadyInvited)]))
      }
      const note = input.message ? `\n\n${input.message}` : ""
      yield* send(
        member.communityId,
        [profileId],
        "speaker-invitation",
        `Convite para enviar uma proposta: ${call.title} / Invitation to submit: ${call.title}`,
        `Você foi convidado a enviar uma proposta para a chamada "${call.title}".${note}\n\n` +
          `You are invited to submit a proposal to the call "${call.title}".${note}\n`
      )
      return { id, callId: call.id, profileId, message: input.message ?? null, createdAt: at.toISOString() }
    })

    // reviews

    /**
     * A review or vote, written under the submission's row lock after checking again that the member
     * is not one of its speakers: accepting a co-speaker invitation takes the same lock and refuses
     * whoever reviewed or voted, so the two cannot both pass.
     */
    const judging = <A, E, R>(member: Member, submissionId: string, refused: Text, write: Effect.Effect<A, E, R>) =>
      transaction(Effect.gen(function*() {
        if ((yield* repo.lock(member.communityId, submissionId)) === undefined) {
          return yield* Effect.fail(notFound(M.notFound))
        }
        const speakers = acceptedOnly(yield* repo.speakersOf(member.communityId, [submissionId]))
        const me = selves(member)
        if (speakers.some((row) => me.includes(row.profileId))) return yield* Effect.fail(forbidden(refused))
        return yield* write
      }))

    const review = traced("Submissions.review")(function*(
      member: Member,
      id: string,
      input: { readonly score: number; readonly comment?: string | null | undefined }
    ) {
      const s = yield* seen(member, id)
      if (s.speaker) return yield* Effect.fail(forbidden(M.ownSubmissionReview))
      if (!s.roles.organiser && !s.trackReviewer) return yield* Effect.fail(forbidden(M.notReviewer))
      if (!openStatuses.includes(s.submission.status)) {
        const message = M.notReviewable(s.submission.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const at = yield* now
      yield* judging(
        member,
        s.submission.id,
        M.ownSubmissionReview,
        repo.upsertReview({
          communityId: member.communityId,
          submissionId: s.submission.id,
          reviewerProfileId: member.profileId,
          score: input.score,
          comment: input.comment ?? null,
          now: at
        })
      )
      const mine = (yield* repo.reviews(member.communityId, s.submission.id)).find((row) =>
        row.reviewerProfileId === member.profileId
      )!
      return { submissionId: s.submission.id, ...reviewView(mine, true) }
    })

    /**
     * Consolidated reviews: mean, count, distribution, and each review. Organisers see who wrote each;
     * reviewers too unless the call has anonymous reviews; proposers and co-speakers never do.
     */
    const reviews = traced("Submissions.reviews")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* readable(s)
      const rows = yield* repo.reviews(member.communityId, s.submission.id)
      const [tally] = yield* repo.reviewTallies(member.communityId, [s.submission.id])
      const named = s.roles.organiser || (!s.speaker && !s.call.anonymousReviews)
      return {
        submissionId: s.submission.id,
        ...tallyView(tally),
        reviewerNamesHidden: !named,
        reviews: rows.map((row) => reviewView(row, named))
      }
    })

    const reviewQueue = traced("Submissions.reviewQueue")(function*(
      member: Member,
      query: PageQuery & { readonly pending?: "true" | "false" | undefined }
    ) {
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, IdCursor)
      const rows = yield* repo.reviewQueue(member.communityId, member.profileId, {
        pending: query.pending === "true",
        after,
        limit
      })
      const page = toPage(rows, limit, (row) => [row.id])
      const speakers = yield* repo.speakersOf(member.communityId, page.items.map((row) => row.id))
      return {
        items: page.items.map((row) => ({
          ...submissionView(row, acceptedOnly(speakers), !row.callAnonymousReviews),
          myReview: row.myScore === null
            ? null
            : { score: row.myScore, comment: row.myComment, updatedAt: row.myReviewedAt?.toISOString() ?? null }
        })),
        pagination: page.pagination
      }
    })

    const reviewProgress = traced("Submissions.reviewProgress")(function*(member: Member, callId: string) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireOrganiser(roles)
      const tracks = yield* repo.trackProgress(member.communityId, call.id)
      const reviewers = yield* repo.reviewerProgress(member.communityId, call.id)
      return {
        callId: call.id,
        tracks: tracks.map((row) => ({
          trackId: row.trackId,
          name: row.name,
          total: row.total,
          reviewed: row.reviewed,
          reviews: row.reviews
        })),
        reviewers: reviewers.map((row) => ({
          profileId: row.profileId,
          fullName: row.fullName,
          trackIds: row.trackIds,
          total: row.total,
          reviewed: row.reviewed
        }))
      }
    })

    // votes

    const requireVoting = (call: CallRow) =>
      call.communityVoting
        ? Effect.void
        : Effect.fail(conflict(M.votingOff, [fieldError("communityVoting", M.votingOff)]))

    const ballot = traced("Submissions.ballot")(function*(member: Member, callId: string, query: PageQuery) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireVoting(call)
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, IdCursor)
      const rows = yield* repo.ballot(member.communityId, call.id, member.actingProfileId, { after, limit })
      const page = toPage(rows, limit, (row) => [row.id])
      const speakers = yield* repo.speakersOf(member.communityId, page.items.map((row) => row.id))
      return {
        items: page.items.map((row) => ({
          ...submissionView(row, acceptedOnly(speakers), showsSpeakers(call, roles, false)),
          myVote: row.myVote
        })),
        pagination: page.pagination
      }
    })

    /**
     * The member's own vote: one per person and submission. A vote is the voter's choice, so staff
     * acting as someone (X-ProfileId) cannot cast, change or remove it in their name (403).
     */
    const votable = (member: Member, id: string) =>
      Effect.gen(function*() {
        if (member.actingProfileId !== member.profileId) return yield* Effect.fail(forbidden(M.voteOwnConsent))
        const s = yield* seen(member, id)
        yield* requireVoting(s.call)
        if (s.speaker) return yield* Effect.fail(forbidden(M.ownSubmissionVote))
        if (!openStatuses.includes(s.submission.status)) {
          const message = M.notOnBallot(s.submission.status)
          return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
        }
        return s
      })

    const vote = traced("Submissions.vote")(function*(member: Member, id: string, value: number) {
      const s = yield* votable(member, id)
      const at = yield* now
      yield* judging(
        member,
        s.submission.id,
        M.ownSubmissionVote,
        repo.upsertVote({
          communityId: member.communityId,
          submissionId: s.submission.id,
          profileId: member.actingProfileId,
          vote: value,
          now: at
        })
      )
      return { submissionId: s.submission.id, vote: value }
    })

    const unvote = traced("Submissions.unvote")(function*(member: Member, id: string) {
      const s = yield* votable(member, id)
      const removed = yield* repo.deleteVote(member.communityId, s.submission.id, member.actingProfileId)
      return { submissionId: s.submission.id, vote: null, removed }
    })

    const voteResults = traced("Submissions.voteResults")(function*(member: Member, callId: string) {
      const { call, roles } = yield* visibleCall(member, callId)
      yield* requireOrganiser(roles)
      const rows = yield* repo.voted(member.communityId, call.id)
      const tallies = yield* repo.voteTallies(member.communityId, rows.map((row) => row.id))
      const results = rows.map((row) => ({
        submissionId: row.id,
        title: row.title,
        trackId: row.trackId,
        trackName: row.trackName,
        status: row.status,
        ...tallyView(tallies.find((tally) => tally.submissionId === row.id))
      }))
      return {
        callId: call.id,
        communityVoting: call.communityVoting,
        results: results.sort((a, b) =>
          (b.mean ?? 0) - (a.mean ?? 0) || b.count - a.count || a.submissionId.localeCompare(b.submissionId)
        )
      }
    })

    // negotiation

    /** Organisers and the speakers follow a negotiation; others 403. */
    const requireParty = (s: Seen) =>
      s.roles.organiser || s.speaker ? Effect.void : Effect.fail(forbidden(M.onlySpeakerOrOrganiser))

    const negotiation = traced("Submissions.negotiation")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      const offers = yield* repo.offers(member.communityId, s.submission.id)
      const open = offers.find((offer) => offer.status === "open")
      return {
        submissionId: s.submission.id,
        status: s.submission.status,
        openOfferId: open?.id ?? null,
        agreedOfferId: s.submission.agreedOfferId,
        offers: offers.map(offerView)
      }
    })

    const refuse = (text: Text) => Effect.fail(conflict(text, [fieldError("status", text)]))

    /** The terms of a new offer: the fields sent, over the last offer's (or the proposal's track). */
    const termsOf = (s: Seen, offers: ReadonlyArray<OfferRow>, input: OfferInput) =>
      Effect.gen(function*() {
        const last = offers[offers.length - 1]
        const base: OfferTerms = last === undefined
          ? {
            format: null,
            durationMinutes: null,
            trackId: s.submission.trackId,
            fee: null,
            currency: null,
            note: null
          }
          : {
            format: last.format,
            durationMinutes: last.durationMinutes,
            trackId: last.trackId,
            fee: last.fee === null ? null : Number(last.fee),
            currency: last.currency,
            note: null
          }
        const trackId = input.trackId === undefined ? base.trackId : yield* checkTrack(s.call, input.trackId)
        const terms: OfferTerms = {
          format: input.format === undefined ? base.format : input.format,
          durationMinutes: input.durationMinutes === undefined ? base.durationMinutes : input.durationMinutes,
          trackId,
          fee: input.fee === undefined ? base.fee : input.fee,
          currency: input.currency === undefined ? base.currency : input.currency,
          note: input.note ?? null
        }
        if (terms.fee !== null && terms.currency === null) {
          return yield* Effect.fail(invalidField("currency", M.currencyRequired))
        }
        return terms
      })

    /** A new offer from `side`, replacing the other side's open one; the submission is `em_negociacao`. */
    const offer = (member: Member, id: string, side: OfferSide, move: SubmissionMove, input: OfferInput) =>
      Effect.gen(function*() {
        const s = yield* seen(member, id)
        if (side === "organisation") yield* requireOrganisationSide(s)
        else {
          yield* requireProposer(s)
          yield* requireOwnConsent(member, s.submission)
        }
        yield* locked(member, s.submission.id, move, (current, to, at) =>
          Effect.gen(function*() {
            const offers = yield* repo.offers(member.communityId, current.id)
            const open = offers.find((row) => row.status === "open")
            if (side === "organisation" && open?.side === "organisation") return yield* refuse(M.offerOpenRetractFirst)
            if (side === "speaker" && open?.side !== "organisation") return yield* refuse(M.speakerCounterNeedsOffer)
            const terms = yield* termsOf({ ...s, submission: current }, offers, input)
            if (open !== undefined) {
              yield* repo.closeOpenOffer(member.communityId, current.id, "superseded", member.actingProfileId, at)
            }
            yield* repo.insertOffer({
              id: yield* ids.next,
              communityId: member.communityId,
              submissionId: current.id,
              side,
              authorProfileId: side === "organisation" ? member.profileId : member.actingProfileId,
              terms,
              now: at
            })
            yield* repo.setStatus(member.communityId, current.id, { status: to }, at)
            yield* notify(
              current,
              side === "organisation" ? "speaker" : "organisation",
              side === "organisation" ? "counter-offer" : "speaker-counter",
              side === "organisation"
                ? { pt: "a organização enviou uma contraproposta.", en: "the organisation sent a counter-offer." }
                : { pt: "o palestrante enviou uma contraproposta.", en: "the speaker sent a counter-offer." }
            )
          }))
        return yield* negotiation(member, s.submission.id)
      })

    const counterOffer = traced("Submissions.counterOffer")(
      function*(member: Member, id: string, input: OfferInput) {
        return yield* offer(member, id, "organisation", "counter-offer", input)
      }
    )

    const speakerCounter = traced("Submissions.speakerCounter")(function*(
      member: Member,
      id: string,
      input: OfferInput
    ) {
      return yield* offer(member, id, "speaker", "speaker-counter", input)
    })

    /** The open offer's author side takes it back: organisers for the organisation, the proposer for theirs. */
    const retract = traced("Submissions.retract")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      yield* locked(member, s.submission.id, "counter-offer/retract", (current, to, at) =>
        Effect.gen(function*() {
          const open = (yield* repo.offers(member.communityId, current.id)).find((row) => row.status === "open")
          if (open === undefined) return yield* refuse(M.noOpenOffer)
          const author = open.side === "organisation" ? s.roles.organiser : s.proposer
          if (!author) return yield* Effect.fail(forbidden(M.retractOnlyAuthor))
          yield* repo.closeOpenOffer(member.communityId, current.id, "retracted", member.actingProfileId, at)
          yield* repo.setStatus(member.communityId, current.id, { status: to }, at)
          yield* notify(current, open.side === "organisation" ? "speaker" : "organisation", "retracted", {
            pt: "a contraproposta aberta foi retirada.",
            en: "the open offer was retracted."
          })
        }))
      return yield* negotiation(member, s.submission.id)
    })

    /** Accepting the other side's open offer: its terms are the agreement. */
    const accept = traced("Submissions.accept")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      yield* locked(member, s.submission.id, "accept", (current, to, at) =>
        Effect.gen(function*() {
          const open = (yield* repo.offers(member.communityId, current.id)).find((row) => row.status === "open")
          if (open === undefined) return yield* refuse(M.noOpenOffer)
          const mayAccept = open.side === "organisation" ? s.proposer : s.roles.organiser
          if (!mayAccept) return yield* refuse(M.acceptOtherSide)
          if (open.side === "organisation") yield* requireOwnConsent(member, current)
          else yield* requireOrganisationSide(s)
          yield* repo.closeOpenOffer(member.communityId, current.id, "accepted", member.actingProfileId, at)
          yield* repo.setStatus(
            member.communityId,
            current.id,
            { status: to, decidedAt: at, agreedOfferId: open.id },
            at
          )
          yield* notify(current, open.side, "accepted", {
            pt: "a contraproposta foi aceita.",
            en: "the offer was accepted."
          })
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** The organisation refuses: `recusada`, any open offer declined. */
    const decline = traced("Submissions.decline")(function*(
      member: Member,
      id: string,
      input: { readonly note?: string | null | undefined }
    ) {
      const s = yield* seen(member, id)
      yield* requireOrganisationSide(s)
      yield* locked(member, s.submission.id, "decline", (current, to, at) =>
        Effect.gen(function*() {
          yield* repo.closeOpenOffer(member.communityId, current.id, "declined", member.profileId, at)
          yield* repo.setStatus(
            member.communityId,
            current.id,
            { status: to, decidedAt: at, decisionNote: input.note ?? null },
            at
          )
          yield* notify(current, "speaker", "declined", {
            pt: "a proposta foi recusada.",
            en: "the submission was declined."
          })
        }))
      return yield* fresh(member, s.submission.id)
    })

    /**
     * The organisation decides directly. `accept`: an open offer (of either side) is accepted and is
     * the agreement; without one, the proposal's own terms are. `refuse`: like decline.
     */
    const decide = traced("Submissions.decide")(function*(
      member: Member,
      id: string,
      input: { readonly decision: "accept" | "refuse"; readonly note?: string | null | undefined }
    ) {
      const s = yield* seen(member, id)
      yield* requireOrganisationSide(s)
      yield* locked(member, s.submission.id, `decide:${input.decision}`, (current, to, at) =>
        Effect.gen(function*() {
          const closed = yield* repo.closeOpenOffer(
            member.communityId,
            current.id,
            input.decision === "accept" ? "accepted" : "declined",
            member.profileId,
            at
          )
          yield* repo.setStatus(member.communityId, current.id, {
            status: to,
            decidedAt: at,
            decisionNote: input.note ?? null,
            ...(input.decision === "accept" ? { agreedOfferId: Option.getOrNull(closed) } : {})
          }, at)
          yield* notify(
            current,
            "speaker",
            input.decision === "accept" ? "accepted" : "declined",
            input.decision === "accept"
              ? { pt: "a proposta foi aceita.", en: "the submission was accepted." }
              : { pt: "a proposta foi recusada.", en: "the submission was declined." }
          )
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** An accepted submission is put on the agenda (final): by an organiser or the proposer. */
    const confirm = traced("Submissions.confirm")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      if (!s.roles.organiser && !s.proposer) return yield* Effect.fail(forbidden(M.onlySpeakerOrOrganiser))
      yield* locked(member, s.submission.id, "confirm", (current, to, at) =>
        Effect.gen(function*() {
          yield* repo.setStatus(member.communityId, current.id, { status: to, confirmedAt: at }, at)
          yield* notify(current, s.roles.organiser ? "speaker" : "organisation", "confirmed", {
            pt: "a proposta foi confirmada na agenda.",
            en: "the submission was confirmed on the agenda."
          })
        }))
      return yield* fresh(member, s.submission.id)
    })

    /** The terms in force once accepted: the accepted offer's, or the proposal's own. */
    const agreement = traced("Submissions.agreement")(function*(member: Member, id: string) {
      const s = yield* seen(member, id)
      yield* requireParty(s)
      const submission = s.submission
      if (submission.status !== "aceita" && submission.status !== "confirmada") {
        const message = M.noAgreement(submission.status)
        return yield* Effect.fail(conflict(message, [fieldError("status", message)]))
      }
      const offers = yield* repo.offers(member.communityId, submission.id)
      const agreed = offers.find((row) => row.id === submission.agreedOfferId)
      const terms = agreed === undefined
        ? {
          format: null,
          durationMinutes: null,
          trackId: submission.trackId,
          trackName: submission.trackName,
          fee: null,
          currency: null,
          note: null
        }
        : offerView(agreed).terms
      return {
        submissionId: submission.id,
        status: submission.status,
        title: submission.title,
        abstract: submission.abstract,
        offerId: agreed?.id ?? null,
        offerVersion: agreed?.version ?? null,
        offerSide: agreed?.side ?? null,
        terms,
        acceptedAt: submission.decidedAt?.toISOString() ?? null,
        confirmedAt: submission.confirmedAt?.toISOString() ?? null
      }
    })

    return {
      create,
      detail,
      update,
      submit,
      withdraw,
      list,
      mine,
      speakers,
      inviteSpeaker,
      acceptCoSpeaking,
      declineCoSpeaking,
      review,
      reviews,
      reviewQueue,
      reviewProgress,
      ballot,
      vote,
      unvote,
      voteResults,
      negotiation,
      counterOffer,
      speakerCounter,
      retract,
      accept,
      decline,
      decide,
      confirm,
      agreement
    }
  }),
  dependencies: [SubmissionsRepo.Default]
}) {}
