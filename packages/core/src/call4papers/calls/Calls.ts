import { Effect } from "effect"
import { CallInvitations } from "./CallInvitations"
import { CallLifecycle } from "./CallLifecycle"
import { CallSpaces } from "./CallSpaces"
import { TracksAndDates } from "./TracksAndDates"

/**
 * Calls for papers, first half, as one contract: the space configuration and a space's calls
 * (`CallSpaces`), a call's life from opening to closing (`CallLifecycle`), its tracks and event dates
 * (`TracksAndDates`), owners and track reviewers (`CallInvitations`). Each use case lives in its own
 * service; this one only puts them together for the HTTP handlers and embedders.
 */
export class Calls extends Effect.Service<Calls>()("@roda/core/call4papers/Calls", {
  effect: Effect.gen(function*() {
    const { callBySlug, configureSpace, spaceCalls, spaceConfig } = yield* CallSpaces
    const { detail, move, open, remove, setStatus, update } = yield* CallLifecycle
    const {
      addEventDate,
      createTrack,
      eventDates,
      removeEventDate,
      removeTrack,
      tracks,
      updateEventDate,
      updateTrack
    } = yield* TracksAndDates
    const {
      answerOwner,
      answerReviewer,
      inviteOwner,
      inviteReviewer,
      myInvitations,
      owners,
      removeOwner,
      removeReviewer,
      reviewers
    } = yield* CallInvitations
    return {
      spaceConfig,
      configureSpace,
      spaceCalls,
      callBySlug,
      detail,
      open,
      update,
      remove,
      setStatus,
      move,
      tracks,
      createTrack,
      updateTrack,
      removeTrack,
      eventDates,
      addEventDate,
      updateEventDate,
      removeEventDate,
      owners,
      inviteOwner,
      answerOwner,
      removeOwner,
      reviewers,
      inviteReviewer,
      answerReviewer,
      removeReviewer,
      myInvitations
    }
  }),
  dependencies: [CallSpaces.Default, CallLifecycle.Default, TracksAndDates.Default, CallInvitations.Default]
}) {}
