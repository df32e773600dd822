import { Calls, Submissions, viewerOfMember } from "@roda/core"
import { Effect } from "effect"
import { adds, ends, reads, routeTool, sets, type ToolSpec } from "../tool"

/**
 * Organising a call for papers: open it and move it through its states, its tracks, its owners and
 * each track's reviewers, and the decision on a submission. Each tool is its route, with the route's
 * roles (organisers: the community's staff and the call's owners).
 */
export const callForPapersTools: ReadonlyArray<ToolSpec> = [
  routeTool("call4papersCalls", "open", {
    name: "open_call_for_papers",
    title: "Open a call for papers",
    description:
      "Opens a call in `draft` in the call4papers space `spaceId` (`title`, optional `opensAt`/`closesAt`, `communityVoting`, `anonymousReviews`); you become its owner. Publish it with `set_call_status`.",
    hints: adds,
    run: ({ payload }, member) => Effect.flatMap(Calls, (c) => c.open(member, payload))
  }),
  routeTool("call4papersCalls", "setStatus", {
    name: "set_call_status",
    title: "Move a call for papers",
    description:
      "Organisers: moves the call `id` to `status` (draft, published, closed…) as its state table allows; a refused move answers 409.",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Calls, (c) => c.setStatus(member, path.id, payload.status))
  }),
  routeTool("call4papersCalls", "tracks", {
    name: "list_call_tracks",
    title: "List a call's tracks",
    description: "The tracks (themes) of the call `id`, in order.",
    hints: reads,
    run: ({ path, urlParams }, member) =>
      Effect.flatMap(Calls, (c) => c.tracks(viewerOfMember(member), path.id, urlParams))
  }),
  routeTool("call4papersCalls", "createTrack", {
    name: "create_call_track",
    title: "Add a track to a call",
    description: "Organisers: adds a track (`name`, optional `description`) to the call `id`.",
    hints: adds,
    run: ({ path, payload }, member) => Effect.flatMap(Calls, (c) => c.createTrack(member, path.id, payload))
  }),
  routeTool("call4papersCalls", "updateTrack", {
    name: "update_call_track",
    title: "Change a track",
    description: "Organisers: changes the track `trackId` (`name`, `description`).",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Calls, (c) => c.updateTrack(member, path.trackId, payload))
  }),
  routeTool("call4papersCalls", "removeTrack", {
    name: "remove_call_track",
    title: "Remove a track",
    description: "Organisers: removes the track `trackId` (refused while submissions are on it).",
    hints: ends,
    run: ({ path }, member) => Effect.as(Effect.flatMap(Calls, (c) => c.removeTrack(member, path.trackId)), null)
  }),
  routeTool("call4papersCalls", "owners", {
    name: "list_call_owners",
    title: "List a call's owners",
    description: "Organisers: the owners of the call `id`, invited and accepted.",
    hints: reads,
    run: ({ path, urlParams }, member) => Effect.flatMap(Calls, (c) => c.owners(member, path.id, urlParams))
  }),
  routeTool("call4papersCalls", "inviteOwner", {
    name: "invite_call_owner",
    title: "Invite an owner to a call",
    description:
      "Organisers: invites the member `profileId` to own the call `id`; they become an owner when they accept.",
    hints: adds,
    run: ({ path, payload }, member) => Effect.flatMap(Calls, (c) => c.inviteOwner(member, path.id, payload.profileId))
  }),
  routeTool("call4papersCalls", "removeOwner", {
    name: "remove_call_owner",
    title: "Remove an owner from a call",
    description: "Organisers: removes the owner (or the invitation) `ownerId` from its call.",
    hints: ends,
    run: ({ path }, member) => Effect.as(Effect.flatMap(Calls, (c) => c.removeOwner(member, path.ownerId)), null)
  }),
  routeTool("call4papersCalls", "reviewers", {
    name: "list_track_reviewers",
    title: "List a track's reviewers",
    description: "Organisers: the reviewers of the track `trackId`, invited and accepted.",
    hints: reads,
    run: ({ path, urlParams }, member) => Effect.flatMap(Calls, (c) => c.reviewers(member, path.trackId, urlParams))
  }),
  routeTool("call4papersCalls", "inviteReviewer", {
    name: "invite_track_reviewer",
    title: "Invite a reviewer to a track",
    description:
      "Organisers: invites the member `profileId` to review the submissions of the track `trackId`; they review once they accept.",
    hints: adds,
    run: ({ path, payload }, member) =>
      Effect.flatMap(Calls, (c) => c.inviteReviewer(member, path.trackId, payload.profileId))
  }),
  routeTool("call4papersCalls", "removeReviewer", {
    name: "remove_track_reviewer",
    title: "Remove a reviewer from a track",
    description: "Organisers: removes the reviewer (or the invitation) `reviewerId` from its track.",
    hints: ends,
    run: ({ path }, member) => Effect.as(Effect.flatMap(Calls, (c) => c.removeReviewer(member, path.reviewerId)), null)
  }),
  routeTool("call4papersSubmissions", "decide", {
    name: "decide_submission",
    title: "Decide on a submission",
    description:
      "Organisers: `decision` `accept` (the open offer, or the proposal's own terms, become the agreement) or `refuse`, with an optional `note`, on the submission `sid`. Not on one's own submission.",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Submissions, (s) => s.decide(member, path.sid, payload))
  })
]
