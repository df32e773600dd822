import { Context, type Effect, type Option } from "effect"
import type { Member } from "../../domain/Caller"

/** A submission as a member's report names it. */
export interface ReportedSubmission {
  readonly id: string
  /** Its proposer. */
  readonly authorProfileId: string
  /** Its title (at most 280 characters). */
  readonly excerpt: string
  /** The member is one of its speakers (proposer, co-speaker or invitee): it is their own. */
  readonly own: boolean
}

/**
 * Submissions as other features name them (contract; `SubmissionSubjectsLive`): the submission a
 * member may read, by the submissions' own rules (`GET /api/call4papers/submissions/{sid}`), or none
 * (absent, of another community, or hidden from them).
 */
export class SubmissionSubjects extends Context.Tag("@roda/core/SubmissionSubjects")<SubmissionSubjects, {
  readonly seen: (member: Member, id: string) => Effect.Effect<Option.Option<ReportedSubmission>>
}>() {}
