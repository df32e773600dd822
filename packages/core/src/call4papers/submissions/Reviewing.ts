import { Clock, Effect } from "effect"
import { conflict, fieldError, forbidden } from "../../domain/AppError"
import type { Member } from "../../domain/Caller"
import { type PageQuery, paginate } from "../../domain/Pagination"
import { traced } from "../../platform/traced"
import { requireOrganiser } from "../calls/Policy"
import { SubmissionMessages as M } from "./messages"
import { openStatuses } from "./Policy"
import { SubmissionsRepo } from "./Repo"
import { SubmissionAccess } from "./SubmissionAccess"
import { SubmissionMail } from "./SubmissionMail"
import { acceptedOnly, byId, IdCursor, readable } from "./submissionRules"
import { reviewView, submissionView, tallyView } from "./view"

/** Reviews of submissions by their track's reviewers and the organisers, and the review progress. */
export class Reviewing extends Effect.Service<Reviewing>()("@roda/core/call4papers/Reviewing", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const { judging, seen, visibleCall } = yield* SubmissionAccess
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

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
      const page = yield* paginate(
        query,
        IdCursor,
        (after, limit) =>
          repo.reviewQueue(member.communityId, member.profileId, {
            pending: query.pending === "true",
            after,
            limit
          }),
        byId
      )
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

    return { review, reviews, reviewQueue, reviewProgress }
  }),
  dependencies: [SubmissionsRepo.Default, SubmissionAccess.Default, SubmissionMail.Default]
}) {}
