import { Effect } from "effect"
import type { WebhookEventType } from "../../webhooks/eventTypes"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import type { MovedRow } from "./Repo"
import { submissionView, versionView } from "./view"

/**
 * The submissions' webhook events: written in the move's transaction (under the submission's row
 * lock), with the submission as its detail route answers the call's organisers, whoever made the
 * move (the proposer submitting or confirming too): every speaker row, and every version. The move's
 * UPDATE read them (`setStatusReturning`), so the event adds one statement, its insert.
 */
export class SubmissionEvents extends Effect.Service<SubmissionEvents>()("@roda/core/call4papers/SubmissionEvents", {
  effect: Effect.gen(function*() {
    const webhooks = yield* WebhookEvents

    const emit = (type: WebhookEventType, moved: MovedRow) =>
      webhooks.emit(moved.communityId, type, {
        ...submissionView(moved, moved.speakers, true),
        versions: moved.versions.map(versionView)
      }).pipe(Effect.withSpan("WebhookEvents.submission"))

    return { emit }
  })
}) {}
