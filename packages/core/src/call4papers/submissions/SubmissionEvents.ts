import { Effect, Option } from "effect"
import type { WebhookEventType } from "../../webhooks/eventTypes"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { SubmissionsRepo } from "./Repo"
import { submissionView, versionView } from "./view"

/**
 * The submissions' webhook events: written in the move's transaction (under the submission's row
 * lock), with the submission as its detail route answers the call's organisers, whoever made the
 * move (the proposer submitting or confirming too): every speaker row, and every version.
 */
export class SubmissionEvents extends Effect.Service<SubmissionEvents>()("@roda/core/call4papers/SubmissionEvents", {
  effect: Effect.gen(function*() {
    const repo = yield* SubmissionsRepo
    const webhooks = yield* WebhookEvents

    const emit = (communityId: string, id: string, type: WebhookEventType) =>
      Effect.gen(function*() {
        const row = Option.getOrThrow(yield* repo.find(communityId, id))
        const speakers = yield* repo.speakersOf(communityId, [row.id])
        const versions = yield* repo.versions(communityId, row.id)
        yield* webhooks.emit(communityId, type, {
          ...submissionView(row, speakers, true),
          versions: versions.map(versionView)
        })
      })

    return { emit }
  }),
  dependencies: [SubmissionsRepo.Default]
}) {}
