import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { SubmissionSubjects } from "../call4papers/submissions/SubmissionSubjects"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { SocialItems } from "../social/items"
import { SocialModeration } from "../social/Moderation"
import { transactional } from "../sql/transaction"
import { viewerOfMember } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { moderationMessages as M } from "./messages"
import type { Reason, SubjectType } from "./Policy"
import { ModerationRepo } from "./Repo"
import { reportView } from "./view"

export interface NewReportInput {
  readonly subjectType: SubjectType
  readonly subjectId: string
  readonly reason: Reason
  readonly note?: string | null | undefined
}

/** What a report names, as the reporter may read it. */
interface Subject {
  readonly authorProfileId: string | null
  readonly excerpt: string
  readonly own: boolean
}

/**
 * Members' reports: each subject is read by its owning feature's rules (404 when the reporter may not
 * read it), one report per reporter and subject, all the open reports of a subject in one case.
 */
export class Reports extends Effect.Service<Reports>()("@roda/core/moderation/Reports", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ModerationRepo
    const social = yield* SocialModeration
    const items = yield* SocialItems
    const submissions = yield* SubmissionSubjects
    const ids = yield* Ids
    const webhooks = yield* WebhookEvents

    const unseen = notFound(M.subjectNotFound)
    const orUnseen = <A>(found: Option.Option<A>) =>
      Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(unseen)
    const mine = (member: Member, profileId: string | null) =>
      profileId === member.actingProfileId || profileId === member.profileId

    const subjectOf = (member: Member, type: SubjectType, id: string): Effect.Effect<Subject, typeof unseen> => {
      const viewer = viewerOfMember(member)
      switch (type) {
        case "status":
        case "comment":
        case "content":
          return social.item(viewer, type, id).pipe(
            Effect.mapError(() => unseen),
            Effect.map((item) => ({ ...item, own: item.authorProfileId === member.actingProfileId }))
          )
        case "event":
          return items.resolve(viewer, "event", id).pipe(
            Effect.mapError(() => unseen),
            Effect.flatMap((event) => repo.event(member.communityId, event.id)),
            Effect.flatMap(orUnseen),
            Effect.map((event) => ({ ...event, own: mine(member, event.authorProfileId) }))
          )
        case "profile":
          return repo.profile(member.communityId, id).pipe(
            Effect.flatMap(orUnseen),
            Effect.map((profile) => ({ ...profile, own: mine(member, profile.id) }))
          )
        case "submission":
          return submissions.seen(member, id).pipe(Effect.flatMap(orUnseen))
      }
    }

    /** The report, and whether this call wrote it (a repeat answers the first one). */
    const report = traced("Reports.report")(function*(member: Member, input: NewReportInput) {
      const subjectId = input.subjectId.toLowerCase()
      const subject = yield* subjectOf(member, input.subjectType, subjectId)
      if (subject.own) return yield* Effect.fail(invalidField("subjectId", M.ownContent))
      const c = member.communityId
      const key = [c, member.actingProfileId, input.subjectType, subjectId] as const
      const existing = () => Effect.map(repo.findReport(...key), Option.getOrThrow)
      return yield* transactional(sql)(Effect.gen(function*() {
        const before = yield* repo.findReport(...key)
        if (Option.isSome(before)) return { ...reportView(before.value), alreadyReported: true as const }
        const caseId = yield* repo.openCase({
          id: yield* ids.next,
          communityId: c,
          subjectType: input.subjectType,
          subjectId,
          authorProfileId: subject.authorProfileId,
          excerpt: subject.excerpt
        })
        const written = yield* repo.insertReport({
          id: yield* ids.next,
          communityId: c,
          caseId,
          reporterProfileId: member.actingProfileId,
          subjectType: input.subjectType,
          subjectId,
          reason: input.reason,
          note: input.note || null
        })
        // the same reporter's report, written by a request that ran at the same time
        if (Option.isNone(written)) return { ...reportView(yield* existing()), alreadyReported: true as const }
        const view = reportView(written.value)
        yield* webhooks.emit(c, "report.created", view)
        return { ...view, alreadyReported: false as const }
      }))
    })

    return { report }
  }),
  dependencies: [ModerationRepo.Default, SocialItems.Default]
}) {}
