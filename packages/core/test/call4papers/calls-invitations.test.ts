import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { type CallCommunity, callCommunity, openCall, ORGANISER_REQUIRED, publishedCall } from "./calls-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string; email: string }
let setup: CallCommunity
let other: CallCommunity
let people: Record<"moderator" | "member" | "alice" | "bruno" | "carla", Person>
let stranger: Person
beforeAll(async () => {
  setup = await callCommunity(api, "Convites")
  other = await callCommunity(api, "Outra")
  people = {
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member", "Mara Member"),
    alice: await setup.addMember("member", "Alice Owner"),
    bruno: await setup.addMember("member", "Bruno Reviewer"),
    carla: await setup.addMember("member", "Carla Reviewer")
  }
  stranger = await other.addMember("member", "Sol Stranger")
})
const owner = () => as(setup.owner, setup.community)
const me = (person: Person) => as(person, setup.community)
const MOVE_REFUSED = (from: string, to: string) =>
  `Não é possível mudar o convite de ${from} para ${to}. Movimentos permitidos: nenhum.`

describe("owners", () => {
  it("invite (e-mail), accept, and the owner gets organiser rights on that call only", async () => {
    const call = await openCall(api, setup)
    const otherCall = await publishedCall(api, setup)
    const invited = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.alice.profileId }, owner()),
      "Convite de organização enviado."
    )
    const mails = (await outboxFor(roda, people.alice.email)).filter((mail) =>
      mail.kind === "call4papers-owner-invitation"
    )
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain(invited.id)

    const listed = expectOk(
      await api.get(`/api/call4papers/${call.id}/owners`, owner()),
      200,
      "Donos da chamada encontrados."
    )
    expect(listed).toEqual([
      expect.objectContaining({ profileId: setup.owner.profileId, status: "accepted" }),
      expect.objectContaining({
        id: invited.id,
        profileId: people.alice.profileId,
        fullName: "Alice Owner",
        status: "pending",
        invitedByProfileId: setup.owner.profileId,
        respondedAt: null
      })
    ])
    // pending: no rights yet (the draft is not even visible)
    expectError(await api.get(`/api/call4papers/${call.id}`, me(people.alice)), 404)
    expectError(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(people.member)), 403)
    const accepted = expectOk(
      await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(people.alice)),
      200,
      "Convite de organização aceito."
    )
    expect(accepted).toMatchObject({ id: invited.id, status: "accepted" })
    expect(accepted.respondedAt).not.toBeNull()

    const detail = expectOk(await api.get(`/api/call4papers/${call.id}`, me(people.alice)))
    expect(detail.viewer).toEqual({ organiser: true, owner: true, reviewerTrackIds: [] })
    expectOk(await api.put(`/api/call4papers/${call.id}`, { title: "Editada pela dona" }, me(people.alice)))
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, me(people.alice)))
    expectOk(await api.get(`/api/call4papers/${call.id}/owners`, me(people.alice)))
    // an owner invites further owners
    expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.member.profileId }, me(people.alice))
    )
    // no rights on another call
    expectError(
      await api.put(`/api/call4papers/${otherCall.id}`, { title: "X" }, me(people.alice)),
      403,
      ORGANISER_REQUIRED
    )
    expectError(await api.get(`/api/call4papers/${otherCall.id}/owners`, me(people.alice)), 403)
  })

  it("answered invitations are final: 409 with param status; decline, re-invite keeps the id", async () => {
    const call = await openCall(api, setup)
    const invited = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.bruno.profileId }, owner())
    )
    const again = expectError(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.bruno.profileId }, owner()),
      409
    )
    expect(again.errors[0].param).toBe("profileId")
    const declined = expectOk(
      await api.post(`/api/call4papers/owners/${invited.id}/decline`, undefined, me(people.bruno)),
      200,
      "Convite de organização recusado."
    )
    expect(declined.status).toBe("declined")
    for (const move of ["accept", "decline"]) {
      const refused = expectError(
        await api.post(`/api/call4papers/owners/${invited.id}/${move}`, undefined, me(people.bruno)),
        409
      )
      expect(refused.errors[0].param).toBe("status")
      expect(refused.message).toBe(MOVE_REFUSED("declined", move === "accept" ? "accepted" : "declined"))
    }
    const reinvited = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.bruno.profileId }, owner())
    )
    expect(reinvited.id).toBe(invited.id)
    expectOk(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(people.bruno)))
    const refused = expectError(
      await api.post(`/api/call4papers/owners/${invited.id}/decline`, undefined, me(people.bruno)),
      409
    )
    expect(refused.message).toBe(MOVE_REFUSED("accepted", "declined"))
    expectError(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.bruno.profileId }, owner()),
      409
    )
  })

  it("two concurrent answers settle once", async () => {
    const call = await openCall(api, setup)
    const invited = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.carla.profileId }, owner())
    )
    const replies = await Promise.all([
      api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(people.carla)),
      api.post(`/api/call4papers/owners/${invited.id}/decline`, undefined, me(people.carla))
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
  })

  it("400 for an unknown profile or one of another community; roles; remove", async () => {
    const call = await publishedCall(api, setup)
    const path = `/api/call4papers/${call.id}/owners`
    expectInvalid(await api.post(path, {}, owner()), "profileId")
    expectInvalid(await api.post(path, { profileId: "nope" }, owner()), "profileId")
    const unknown = expectInvalid(await api.post(path, { profileId: unknownId() }, owner()), "profileId")
    expect(unknown.message).toBe("Perfil não encontrado nesta comunidade.")
    expectInvalid(await api.post(path, { profileId: stranger.profileId }, owner()), "profileId")
    expectError(await api.post(path, { profileId: people.carla.profileId }, me(people.member)), 403, ORGANISER_REQUIRED)
    expectError(await api.get(path, me(people.member)), 403)
    expectError(await api.get(path, { community: setup.community.id }), 401)

    const invited = expectCreated(
      await api.post(path, { profileId: people.carla.profileId }, as(people.moderator, setup.community))
    )
    expectError(await api.del(`/api/call4papers/owners/${invited.id}`, me(people.member)), 403)
    // another community: 404
    expectError(await api.del(`/api/call4papers/owners/${invited.id}`, as(other.owner, other.community)), 404)
    expectError(
      await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, as(stranger, other.community)),
      404
    )
    expectError(await api.post(`/api/call4papers/owners/nope/accept`, undefined, me(people.carla)), 400)
    // the invitee steps down; an organiser removes
    expectOk(await api.del(`/api/call4papers/owners/${invited.id}`, me(people.carla)), 200, "Dono removido da chamada.")
    expectError(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(people.carla)), 404)
    const again = expectCreated(await api.post(path, { profileId: people.carla.profileId }, owner()))
    expect(again.id).not.toBe(invited.id)
    expectOk(await api.del(`/api/call4papers/owners/${again.id}`, owner()))
    const listed = expectOk(await api.get(path, owner()))
    expect(listed.map((row: { profileId: string }) => row.profileId)).toEqual([setup.owner.profileId])
  })
})

describe("acting as another profile (X-ProfileId)", () => {
  it("roles are the caller's own: staff acting keep organiser rights but cannot answer the acted profile's invitation", async () => {
    const call = await publishedCall(api, setup)
    const person = await setup.addMember("member", "Ivo Invited")
    const acting = { ...as(people.moderator, setup.community), profile: person.profileId }
    const invited = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: person.profileId }, acting)
    )
    expectError(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, acting), 403)
    const en = await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, {
      ...acting,
      headers: { "accept-language": "en" }
    })
    expect(expectError(en, 403).message).toBe("This invitation belongs to someone else.")
    expectOk(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, me(person)))
    const refused = await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, {
      ...me(person),
      headers: { "accept-language": "en" }
    })
    expect(expectError(refused, 409).message).toBe(
      "The invitation cannot move from accepted to accepted. Allowed moves: none."
    )
  })
})

describe("track reviewers", () => {
  it("invite, accept: the reviewer reviews that track only and is not an organiser", async () => {
    const call = await publishedCall(api, setup)
    const web = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Web" }, owner()))
    const data = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Dados" }, owner()))
    const invited = expectCreated(
      await api.post(`/api/call4papers/tracks/${web.id}/reviewers`, { profileId: people.bruno.profileId }, owner()),
      "Convite de avaliação enviado."
    )
    const mails = (await outboxFor(roda, people.bruno.email)).filter((mail) =>
      mail.kind === "call4papers-reviewer-invitation"
    )
    expect(mails.at(-1)!.body).toContain(invited.id)
    const listed = expectOk(
      await api.get(`/api/call4papers/tracks/${web.id}/reviewers`, owner()),
      200,
      "Avaliadores encontrados."
    )
    expect(listed).toEqual([
      expect.objectContaining({ id: invited.id, trackId: web.id, profileId: people.bruno.profileId, status: "pending" })
    ])
    expect(expectOk(await api.get(`/api/call4papers/tracks/${data.id}/reviewers`, owner()))).toEqual([])

    expect(expectOk(await api.get(`/api/call4papers/${call.id}`, me(people.bruno))).viewer.reviewerTrackIds).toEqual([])
    expectError(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, me(people.carla)),
      403
    )
    const accepted = expectOk(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, me(people.bruno)),
      200,
      "Convite de avaliação aceito."
    )
    expect(accepted).toMatchObject({ status: "accepted", trackId: web.id })
    const viewer = expectOk(await api.get(`/api/call4papers/${call.id}`, me(people.bruno))).viewer
    expect(viewer).toEqual({ organiser: false, owner: false, reviewerTrackIds: [web.id] })
    // a reviewer is not an organiser
    expectError(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "X" }, me(people.bruno)), 403)
    expectError(await api.get(`/api/call4papers/tracks/${web.id}/reviewers`, me(people.bruno)), 403)
    const refused = expectError(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, me(people.bruno)),
      409
    )
    expect(refused.errors[0].param).toBe("status")
    expect(refused.message).toBe(MOVE_REFUSED("accepted", "accepted"))

    // removing the track removes the role on it
    expectOk(await api.del(`/api/call4papers/tracks/${web.id}`, owner()))
    expect(expectOk(await api.get(`/api/call4papers/${call.id}`, me(people.bruno))).viewer.reviewerTrackIds).toEqual([])
    expectError(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/decline`, undefined, me(people.bruno)),
      404
    )
  })

  it("decline, re-invite, 409 on duplicates, 400 on unknown profiles, remove", async () => {
    const call = await publishedCall(api, setup)
    const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Geral" }, owner()))
    const path = `/api/call4papers/tracks/${track.id}/reviewers`
    expectInvalid(await api.post(path, {}, owner()), "profileId")
    expectInvalid(await api.post(path, { profileId: unknownId() }, owner()), "profileId")
    expectInvalid(await api.post(path, { profileId: stranger.profileId }, owner()), "profileId")
    expectError(await api.post(path, { profileId: people.carla.profileId }, me(people.member)), 403, ORGANISER_REQUIRED)
    const invited = expectCreated(await api.post(path, { profileId: people.carla.profileId }, owner()))
    expectError(await api.post(path, { profileId: people.carla.profileId }, owner()), 409)
    expect(
      expectOk(
        await api.post(`/api/call4papers/track-reviewers/${invited.id}/decline`, undefined, me(people.carla)),
        200,
        "Convite de avaliação recusado."
      ).status
    ).toBe("declined")
    const refused = expectError(
      await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, me(people.carla)),
      409
    )
    expect(refused.message).toBe(MOVE_REFUSED("declined", "accepted"))
    expect(expectCreated(await api.post(path, { profileId: people.carla.profileId }, owner())).id).toBe(invited.id)
    expectError(await api.del(`/api/call4papers/track-reviewers/${invited.id}`, me(people.member)), 403)
    expectError(await api.del(`/api/call4papers/track-reviewers/${invited.id}`, as(other.owner, other.community)), 404)
    expectOk(
      await api.del(`/api/call4papers/track-reviewers/${invited.id}`, owner()),
      200,
      "Avaliador removido da trilha."
    )
    expectError(await api.del(`/api/call4papers/track-reviewers/${invited.id}`, owner()), 404)
    expect(expectOk(await api.get(path, owner()))).toEqual([])
    // a call owner manages reviewers of the call's tracks
    const ownerInvite = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: people.alice.profileId }, owner())
    )
    expectOk(await api.post(`/api/call4papers/owners/${ownerInvite.id}/accept`, undefined, me(people.alice)))
    expectCreated(await api.post(path, { profileId: people.member.profileId }, me(people.alice)))
  })
})

describe("GET /api/call4papers/me/invitations", () => {
  it("lists the caller's pending invitations of both kinds; answered and removed ones leave", async () => {
    const person = await setup.addMember("member", "Paula Pending")
    const call = await publishedCall(api, setup)
    const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Mobile" }, owner()))
    const asOwner = expectCreated(
      await api.post(`/api/call4papers/${call.id}/owners`, { profileId: person.profileId }, owner())
    )
    const asReviewer = expectCreated(
      await api.post(`/api/call4papers/tracks/${track.id}/reviewers`, { profileId: person.profileId }, owner())
    )
    const draft = await openCall(api, setup)
    const onDraft = expectCreated(
      await api.post(`/api/call4papers/${draft.id}/owners`, { profileId: person.profileId }, owner())
    )

    const pending = expectOk(await api.get("/api/call4papers/me/invitations", me(person)), 200, "Convites pendentes.")
    expect(pending).toEqual([
      expect.objectContaining({ kind: "owner", id: asOwner.id, callId: call.id, callTitle: call.title, trackId: null }),
      expect.objectContaining({
        kind: "reviewer",
        id: asReviewer.id,
        callId: call.id,
        trackId: track.id,
        trackName: "Mobile"
      }),
      expect.objectContaining({ kind: "owner", id: onDraft.id, callId: draft.id })
    ])
    const page = await api.get("/api/call4papers/me/invitations?limit=2", me(person))
    expect(expectOk(page)).toHaveLength(2)
    const rest = await api.get(
      `/api/call4papers/me/invitations?limit=2&cursor=${page.body.pagination.nextCursor}`,
      me(person)
    )
    expect(expectOk(rest).map((row: { id: string }) => row.id)).toEqual([onDraft.id])

    expectOk(await api.post(`/api/call4papers/owners/${asOwner.id}/accept`, undefined, me(person)))
    expectOk(await api.del(`/api/call4papers/${draft.id}`, owner()))
    const left = expectOk(await api.get("/api/call4papers/me/invitations", me(person)))
    expect(left.map((row: { id: string }) => row.id)).toEqual([asReviewer.id])
    // others see their own only
    expect(
      expectOk(await api.get("/api/call4papers/me/invitations", me(people.member))).map((row: { id: string }) => row.id)
    )
      .not.toContain(asReviewer.id)
    expectError(await api.get("/api/call4papers/me/invitations", { community: setup.community.id }), 401)
    expectInvalid(await api.get("/api/call4papers/me/invitations?limit=0", me(person)), "limit", "query")
  })
})
