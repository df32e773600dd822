import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { answerCoSpeaking, asIn, type C4PSetup, c4pSetup, draft, type Person, submitted } from "./submissions-support"

/**
 * Co-speakers consent: a co-speaker named by the proposer is invited, not attached; they become a
 * speaker (bank, their lists, visibility) only when they accept with their own token.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: C4PSetup
let other: C4PSetup
beforeAll(async () => {
  setup = await c4pSetup(api, "Coautoria C4P")
  other = await c4pSetup(api, "Coautoria C4P outra")
}, 180_000)

const NOT_YOURS =
  "Este convite é de outra pessoa: apenas a pessoa convidada responde, com o próprio acesso; agir como o perfil dela (X-ProfileId) não basta."
const INVITATION_NOT_FOUND = "Convite de coautoria não encontrado."

const path = (id: string, rest = "") => `/api/call4papers/submissions/${id}${rest}`

/** A submitted proposal by the setup's proposer naming `people` as co-speakers, who stay invited. */
const proposing = async (s: C4PSetup, people: ReadonlyArray<Person>) => {
  const created = await draft(api, s, { coSpeakers: people.map((p) => p.profileId) }, s.people.proposer, true)
  expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(s, s.people.proposer)))
  return created as { id: string }
}

const bankIds = async (s: C4PSetup) =>
  (expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(s, s.people.staff))) as Array<{
    profileId: string
  }>).map((person) => person.profileId)

const ownIds = async (s: C4PSetup, person: Person) =>
  (expectOk(await api.get("/api/call4papers/me/submissions?limit=100", asIn(s, person))) as Array<{ id: string }>)
    .map((row) => row.id)

const callListIds = async (s: C4PSetup, person: Person) =>
  (expectOk(await api.get(`/api/call4papers/${s.call.id}/submissions?limit=100`, asIn(s, person))) as Array<{
    id: string
  }>).map((row) => row.id)

const coSpeakersSeenBy = async (s: C4PSetup, id: string, person: Person) =>
  (expectOk(await api.get(path(id), asIn(s, person))).coSpeakers as Array<{ profileId: string; status: string }>)
    .map((row) => [row.profileId, row.status])

describe("naming a co-speaker invites them", () => {
  it("does not make them a speaker until they accept (bank, their lists), and e-mails them", async () => {
    const guest = await setup.addMember("member", "Gina Guest")
    const created = await proposing(setup, [guest])
    expect(await bankIds(setup)).not.toContain(guest.profileId)
    expect(await ownIds(setup, guest)).not.toContain(created.id)
    expect(await callListIds(setup, guest)).not.toContain(created.id)
    // the proposer and organisers see the invitation with its status; the guest is e-mailed
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.proposer)).toEqual([[guest.profileId, "invited"]])
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.staff)).toEqual([[guest.profileId, "invited"]])
    expect((await outboxFor(roda, guest.email)).map((mail) => mail.kind)).toContain(
      "call4papers.co-speaker-invitation"
    )

    const answered = expectOk(
      await answerCoSpeaking(api, setup, created.id, guest),
      200,
      "Convite de coautoria aceito."
    )
    expect(answered).toEqual({ submissionId: created.id, profileId: guest.profileId, status: "accepted" })
    expect(await bankIds(setup)).toContain(guest.profileId)
    expect(await ownIds(setup, guest)).toContain(created.id)
    expect(await callListIds(setup, guest)).toContain(created.id)
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.proposer)).toEqual([[guest.profileId, "accepted"]])
    expect(await coSpeakersSeenBy(setup, created.id, guest)).toEqual([[guest.profileId, "accepted"]])
  })

  it("a draft named co-speaker is not a speaker of it: it is not in their list until they accept", async () => {
    const guest = await setup.addMember("member", "Dora Draft")
    const created = await draft(api, setup, { coSpeakers: [guest.profileId] }, setup.people.proposer, true)
    expect(await ownIds(setup, guest)).not.toContain(created.id)
    // the invitee may read what they are asked to join, not its reviews, and may not edit it
    const seen = expectOk(await api.get(path(created.id), asIn(setup, guest)))
    expect(seen.versions).toEqual([])
    expectError(await api.get(path(created.id, "/reviews"), asIn(setup, guest)), 403)
    expectError(await api.put(path(created.id), { title: "Minha agora" }, asIn(setup, guest)), 403)
    expectOk(await answerCoSpeaking(api, setup, created.id, guest))
    expect(await ownIds(setup, guest)).toContain(created.id)
  })

  it("the invited person declines: never a speaker; the proposer sees the refusal; answering twice is 409", async () => {
    const guest = await setup.addMember("member", "Davi Declines")
    const created = await proposing(setup, [guest])
    const answered = expectOk(
      await answerCoSpeaking(api, setup, created.id, guest, "decline"),
      200,
      "Convite de coautoria recusado."
    )
    expect(answered.status).toBe("declined")
    expect(await bankIds(setup)).not.toContain(guest.profileId)
    expect(await ownIds(setup, guest)).not.toContain(created.id)
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.proposer)).toEqual([[guest.profileId, "declined"]])
    expect((await outboxFor(roda, setup.people.proposer.email)).map((mail) => mail.kind)).toContain(
      "call4papers.co-speaker-declined"
    )
    // both answers are final
    const again = expectError(await answerCoSpeaking(api, setup, created.id, guest, "decline"), 409)
    expect(again.errors[0].param).toBe("status")
    expectError(await answerCoSpeaking(api, setup, created.id, guest), 409)
  })

  it("answering an accepted invitation again is 409", async () => {
    const guest = await setup.addMember("member", "Ana Again")
    const created = await proposing(setup, [guest])
    expectOk(await answerCoSpeaking(api, setup, created.id, guest))
    expectError(await answerCoSpeaking(api, setup, created.id, guest), 409)
    expectError(await answerCoSpeaking(api, setup, created.id, guest, "decline"), 409)
  })

  it("a withdrawn or refused proposal takes no new co-speaker (409, param status); declining still works", async () => {
    const [late, other, refusedGuest] = [
      await setup.addMember("member", "Wanda Withdrawn"),
      await setup.addMember("member", "Otto Withdrawn"),
      await setup.addMember("member", "Rui Refused")
    ]
    const withdrawn = await proposing(setup, [late, other])
    expectOk(await api.post(path(withdrawn.id, "/withdraw"), undefined, asIn(setup, setup.people.proposer)))
    const closed = expectError(await answerCoSpeaking(api, setup, withdrawn.id, late), 409)
    expect(closed.errors[0].param).toBe("status")
    expectOk(await answerCoSpeaking(api, setup, withdrawn.id, other, "decline"))
    expect(await coSpeakersSeenBy(setup, withdrawn.id, setup.people.proposer)).toEqual(
      expect.arrayContaining([[late.profileId, "invited"], [other.profileId, "declined"]])
    )
    expect(await ownIds(setup, late)).not.toContain(withdrawn.id)

    const refused = await proposing(setup, [refusedGuest])
    expectOk(
      await api.post(path(refused.id, "/decide"), { decision: "refuse" }, asIn(setup, setup.people.staff))
    )
    expectError(await answerCoSpeaking(api, setup, refused.id, refusedGuest), 409)
    expect(await ownIds(setup, refusedGuest)).not.toContain(refused.id)
  })

  it("staff acting as the invited person (X-ProfileId) get 403; nothing changes", async () => {
    const guest = await setup.addMember("member", "Igor Impersonated")
    const created = await proposing(setup, [guest])
    const acting = { ...asIn(setup, setup.people.staff), profile: guest.profileId }
    for (const answer of ["accept", "decline"]) {
      expectError(await api.post(path(created.id, `/co-speaker/${answer}`), undefined, acting), 403, NOT_YOURS)
    }
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.proposer)).toEqual([[guest.profileId, "invited"]])
    expect(await bankIds(setup)).not.toContain(guest.profileId)
  })

  it("a stranger, the proposer or another community's member gets 404", async () => {
    const guest = await setup.addMember("member", "Sara Stranger-Case")
    const created = await proposing(setup, [guest])
    const { member, proposer, staff } = setup.people
    expectError(await answerCoSpeaking(api, setup, created.id, member), 404, INVITATION_NOT_FOUND)
    expectError(await answerCoSpeaking(api, setup, created.id, staff), 404, INVITATION_NOT_FOUND)
    expectError(await answerCoSpeaking(api, setup, created.id, proposer), 404, INVITATION_NOT_FOUND)
    expectError(await answerCoSpeaking(api, other, created.id, other.people.member), 404)
    expectError(await answerCoSpeaking(api, other, created.id, other.people.staff), 404)
  })

  it("an invitation on another community's submission is 404 from this community", async () => {
    const guest = await other.addMember("member", "Olga Other")
    const created = await proposing(other, [guest])
    // members of another community cannot reach it through theirs
    expectError(await answerCoSpeaking(api, setup, created.id, setup.people.coSpeaker), 404)
    expectError(await answerCoSpeaking(api, setup, created.id, setup.people.staff), 404)
    expectOk(await answerCoSpeaking(api, other, created.id, guest))
  })

  it("two accepts at once succeed once", async () => {
    const guest = await setup.addMember("member", "Rui Race")
    const created = await proposing(setup, [guest])
    const replies = await Promise.all([
      answerCoSpeaking(api, setup, created.id, guest),
      answerCoSpeaking(api, setup, created.id, guest)
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.proposer)).toEqual([[guest.profileId, "accepted"]])
  })
})

describe("PUT replacing the co-speakers", () => {
  it("keeps accepted people who stay, invites new ones, and drops those left off", async () => {
    const kept = await setup.addMember("member", "Kiko Kept")
    const dropped = await setup.addMember("member", "Dani Dropped")
    const added = await setup.addMember("member", "Nina New")
    const created = await draft(
      api,
      setup,
      { coSpeakers: [kept.profileId, dropped.profileId] },
      setup.people.proposer,
      true
    )
    expectOk(await answerCoSpeaking(api, setup, created.id, kept))
    expectOk(await answerCoSpeaking(api, setup, created.id, dropped))
    const edited = expectOk(
      await api.put(
        path(created.id),
        { coSpeakers: [added.profileId, kept.profileId] },
        asIn(setup, setup.people.proposer)
      )
    )
    expect(edited.coSpeakers.map((row: { profileId: string; status: string }) => [row.profileId, row.status]))
      .toEqual([[added.profileId, "invited"], [kept.profileId, "accepted"]])
    expect((await outboxFor(roda, added.email)).map((mail) => mail.kind)).toContain("call4papers.co-speaker-invitation")
    expect(await ownIds(setup, kept)).toContain(created.id)
    expect(await ownIds(setup, dropped)).not.toContain(created.id)
    expect(await ownIds(setup, added)).not.toContain(created.id)
    // the dropped person has no invitation any more
    expectError(await answerCoSpeaking(api, setup, created.id, dropped), 404)
    // submitted: the added one, still invited, is not in the bank; the kept one is
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, setup.people.proposer)))
    const bank = await bankIds(setup)
    expect(bank).toContain(kept.profileId)
    expect(bank).not.toContain(added.profileId)
  })

  it("the cast helper still lets a named co-speaker speak once they accept", async () => {
    const created = await submitted(api, setup, { coSpeakers: [setup.people.coSpeaker.profileId] })
    expect(await coSpeakersSeenBy(setup, created.id, setup.people.coSpeaker)).toEqual([[
      setup.people.coSpeaker.profileId,
      "accepted"
    ]])
  })
})

describe("no one co-speaks a proposal they judged", () => {
  const AFTER_JUDGING = "Você avaliou ou votou nesta proposta; não pode ser coautor(a) dela."

  it("a reviewer who reviewed it, or a member who voted on it, cannot then accept; declining stays open", async () => {
    const { reviewerA } = setup.people
    const voter = await setup.addMember("member", "Vera Voter")
    const created = await proposing(setup, [reviewerA, voter])
    expectOk(await api.put(path(created.id, "/review"), { score: 4 }, asIn(setup, reviewerA)))
    expectOk(await api.put(path(created.id, "/vote"), { vote: 5 }, asIn(setup, voter)))
    for (const person of [reviewerA, voter]) {
      expectError(
        await api.post(path(created.id, "/co-speaker/accept"), undefined, asIn(setup, person)),
        403,
        AFTER_JUDGING
      )
    }
    expectOk(await api.post(path(created.id, "/co-speaker/decline"), undefined, asIn(setup, voter)))
  })

  it("a vote and an acceptance fired together: one of them passes, never both", async () => {
    for (let i = 0; i < 4; i++) {
      const voter = await setup.addMember("member", `Vera Voter ${i}`)
      const created = await proposing(setup, [voter])
      const [voted, accepted] = await Promise.all([
        api.put(path(created.id, "/vote"), { vote: 3 }, asIn(setup, voter)),
        api.post(path(created.id, "/co-speaker/accept"), undefined, asIn(setup, voter))
      ])
      expect([voted.status, accepted.status].sort()).toEqual([200, 403])
    }
  })
})
