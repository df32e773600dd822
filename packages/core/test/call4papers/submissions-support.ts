import { expect } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import type { Client } from "../support/harness"
import { type CallCommunity, callCommunity, publishedCall } from "./calls-support"

export const SUBMISSION_NOT_FOUND = "Proposta não encontrada."
export const ONLY_PROPOSER = "Apenas quem enviou a proposta pode fazer isso."
export const CANNOT_SEE = "Apenas a organização, os avaliadores da trilha e os palestrantes veem esta proposta."
export const NOT_REVIEWER = "Apenas avaliadores da trilha da proposta ou a organização podem avaliá-la."
export const ORGANISER_REQUIRED = "Apenas owner, admin, moderator ou um dono (owner) da chamada podem fazer isso."
export const SPEAKER_OR_ORGANISER = "Apenas a organização da chamada ou quem enviou a proposta pode fazer isso."

export interface Person {
  readonly token: string
  readonly profileId: string
  readonly email: string
  readonly fullName: string
}

/**
 * A community with a published call (community voting on) with two tracks, and its cast: the
 * community owner (staff organiser), an accepted call owner, an accepted reviewer of each track, a
 * proposer, a co-speaker and another member.
 */
export const c4pSetup = async (api: Client, label = "C4P", callBody: Record<string, unknown> = {}) => {
  const setup: CallCommunity = await callCommunity(api, label)
  const owner = () => as(setup.owner, setup.community)
  const call = await publishedCall(api, setup, { communityVoting: true, ...callBody })
  const track = async (name: string) =>
    expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name }, owner())) as { id: string }
  const trackA = await track("Backend")
  const trackB = await track("Frontend")
  const callOwner: Person = await setup.addMember("member", "Carla Call-Owner")
  const invitedOwner = expectCreated(
    await api.post(`/api/call4papers/${call.id}/owners`, { profileId: callOwner.profileId }, owner())
  )
  expectOk(
    await api.post(`/api/call4papers/owners/${invitedOwner.id}/accept`, undefined, as(callOwner, setup.community))
  )
  const reviewer = async (trackId: string, name: string) => {
    const person: Person = await setup.addMember("member", name)
    const invited = expectCreated(
      await api.post(`/api/call4papers/tracks/${trackId}/reviewers`, { profileId: person.profileId }, owner())
    )
    expectOk(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, as(person, setup.community))
    )
    return person
  }
  const reviewerA = await reviewer(trackA.id, "Rita Reviewer-A")
  const reviewerB = await reviewer(trackB.id, "Rui Reviewer-B")
  const proposer: Person = await setup.addMember("member", "Paula Proposer")
  const coSpeaker: Person = await setup.addMember("member", "Caio Co-Speaker")
  const member: Person = await setup.addMember("member", "Mario Member")
  const moderator: Person = await setup.addMember("moderator", "Marta Moderator")
  const staff: Person = { ...setup.owner, profileId: setup.owner.profileId }
  return {
    ...setup,
    call,
    trackA,
    trackB,
    people: { staff, moderator, callOwner, reviewerA, reviewerB, proposer, coSpeaker, member }
  }
}

export type C4PSetup = Awaited<ReturnType<typeof c4pSetup>>

export const asIn = (setup: { community: { id: string } }, person: { token: string }) => as(person, setup.community)

/** The invited co-speaker answers (`accept` or `decline`) with their own token. */
export const answerCoSpeaking = (
  api: Client,
  setup: { community: { id: string } },
  submissionId: string,
  person: Person,
  answer: "accept" | "decline" = "accept"
) => api.post(`/api/call4papers/submissions/${submissionId}/co-speaker/${answer}`, undefined, asIn(setup, person))

/**
 * A draft by `proposer` (default the setup's proposer) on track A. Co-speakers named from the cast
 * accept their invitation (most tests want them speaking); `invitedOnly` leaves them invited.
 */
export const draft = async (
  api: Client,
  setup: C4PSetup,
  body: Record<string, unknown> = {},
  proposer: Person = setup.people.proposer,
  invitedOnly = false
) => {
  const created = expectCreated(
    await api.post(
      `/api/call4papers/${setup.call.id}/submissions`,
      { title: "Effect na prática", abstract: "Como escrever serviços com Effect.", trackId: setup.trackA.id, ...body },
      asIn(setup, proposer)
    )
  )
  if (invitedOnly) return created
  const named = (body.coSpeakers ?? []) as ReadonlyArray<string>
  const cast = Object.values(setup.people).filter((person) => named.includes(person.profileId))
  if (cast.length === 0) return created
  for (const person of cast) expectOk(await answerCoSpeaking(api, setup, created.id, person))
  return expectOk(await api.get(`/api/call4papers/submissions/${created.id}`, asIn(setup, proposer)))
}

/** A submitted (`enviada`) submission. */
export const submitted = async (
  api: Client,
  setup: C4PSetup,
  body: Record<string, unknown> = {},
  proposer: Person = setup.people.proposer
) => {
  const created = await draft(api, setup, body, proposer)
  const data = expectOk(
    await api.post(`/api/call4papers/submissions/${created.id}/submit`, undefined, asIn(setup, proposer))
  )
  expect(data.status).toBe("enviada")
  return data
}

/** A submission in negotiation: the organisation's counter-offer is open. */
export const negotiating = async (api: Client, setup: C4PSetup, terms: Record<string, unknown> = {}) => {
  const created = await submitted(api, setup)
  expectOk(
    await api.post(
      `/api/call4papers/submissions/${created.id}/counter-offer`,
      { format: "workshop", durationMinutes: 90, fee: 50000, currency: "BRL", ...terms },
      asIn(setup, setup.people.staff)
    )
  )
  return created
}

export const statusOf = async (api: Client, setup: C4PSetup, id: string) =>
  expectOk(await api.get(`/api/call4papers/submissions/${id}`, asIn(setup, setup.people.staff))).status
