import { HttpApiGroup, OpenApi } from "@effect/platform"
import {
  acceptOwner,
  acceptReviewer,
  declineOwner,
  declineReviewer,
  inviteOwner,
  inviteReviewer,
  myInvitations,
  owners,
  removeOwner,
  removeReviewer,
  reviewers
} from "./invitationEndpoints"
import { close, detail, open, publish, remove, reopen, setStatus, unpublish, update } from "./lifecycleEndpoints"
import { callBySlug, configureSpace, spaceCalls, spaceConfig } from "./spaceEndpoints"
import {
  addEventDate,
  createTrack,
  eventDates,
  removeEventDate,
  removeTrack,
  tracks,
  updateEventDate,
  updateTrack
} from "./trackAndDateEndpoints"

export class CallsApi extends HttpApiGroup.make("call4papersCalls")
  .annotateContext(OpenApi.annotations({
    title: "Calls for papers",
    description: "Calls for papers: space configuration, lifecycle, tracks, reviewers, event dates and owners."
  }))
  .add(spaceConfig)
  .add(configureSpace)
  .add(spaceCalls)
  .add(callBySlug)
  .add(myInvitations)
  .add(open)
  .add(detail)
  .add(update)
  .add(remove)
  .add(setStatus)
  .add(publish)
  .add(unpublish)
  .add(close)
  .add(reopen)
  .add(tracks)
  .add(createTrack)
  .add(updateTrack)
  .add(removeTrack)
  .add(reviewers)
  .add(inviteReviewer)
  .add(removeReviewer)
  .add(acceptReviewer)
  .add(declineReviewer)
  .add(eventDates)
  .add(addEventDate)
  .add(updateEventDate)
  .add(removeEventDate)
  .add(owners)
  .add(inviteOwner)
  .add(removeOwner)
  .add(acceptOwner)
  .add(declineOwner)
  .prefix("/api")
{}
