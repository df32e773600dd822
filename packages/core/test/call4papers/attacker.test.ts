import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectCreated, expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { openCall } from "./calls-support"
import { asIn, type C4PSetup, c4pSetup, negotiating, type Person, submitted } from "./submissions-support"

/**
 * An attacker's review of calls for papers: what a plain member, a reviewer, a call owner, a speaker
 * or staff acting as someone else (X-ProfileId) can reach beyond their part.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: C4PSetup
let blind: C4PSetup
let other: C4PSetup
beforeAll(async () => {
  setup = await c4pSetup(api, "Ataque C4P")
  blind = await c4pSetup(api, "Ataque C4P cega", { anonymousReviews: true })
  other = await c4pSetup(api, "Ataque C4P outra")
}, 180_000)

const actingAs = (s: C4PSetup, staff: Person, profileId: string) => ({ ...asIn(s, staff), profile: profileId })

/** Members may open calls in the space (they become the call's owner). */
const membersMode = async (s: C4PSetup) =>
  expectOk(await api.put(`/api/call4papers/spaces/${s.space.id}`, { mode: "members" }, asIn(s, s.people.staff)))

describe("the speaker bank does not reach past the calls one organises", () => {
  it("a reviewer of a blind call who opens a call of their own learns nothing of the blind call's speakers", async () => {
    const { reviewerA, proposer, member } = blind.people
    const secret = await submitted(api, blind, { title: "Proposta cega" })
    await membersMode(blind)
    // The reviewer cannot see who proposed it through the submission itself …
    const seen = expectOk(await api.get(`/api/call4papers/submissions/${secret.id}`, asIn(blind, reviewerA)))
    expect(seen.proposer).toBeNull()
    // … nor by opening a call and reading the bank …
    const own = await openCall(api, blind, { title: "Minha chamada" }, reviewerA)
    const bank = expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(blind, reviewerA))) as Array<{
      profileId: string
      submissions: Array<{ id: string }>
    }>
    expect(bank.map((person) => person.profileId)).not.toContain(proposer.profileId)
    expect(bank.flatMap((person) => person.submissions.map((s) => s.id))).not.toContain(secret.id)
    // … nor by probing invitations: someone of another call's bank answers like someone of no bank.
    expectOk(await api.post(`/api/call4papers/${own.id}/publish`, undefined, asIn(blind, reviewerA)))
    const probe = (profileId: string) =>
      api.post(`/api/call4papers/${own.id}/invite-speaker`, { profileId }, asIn(blind, reviewerA))
    expectInvalid(await probe(proposer.profileId), "profileId")
    expectInvalid(await probe(member.profileId), "profileId")
    // Staff still see the whole bank and may invite from it.
    const staffBank = expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(blind, blind.people.staff)))
    expect(staffBank.map((person: { profileId: string }) => person.profileId)).toContain(proposer.profileId)
    expectOk(
      await api.post(
        `/api/call4papers/${own.id}/invite-speaker`,
        { profileId: proposer.profileId },
        asIn(blind, blind.people.staff)
      ),
      201
    )
  })

  it("an owner of one call sees the speakers of that call only, not other calls' proposals", async () => {
    const { callOwner, proposer, coSpeaker } = setup.people
    const mine = await submitted(api, setup, { title: "Na chamada da Carla", coSpeakers: [coSpeaker.profileId] })
    // a second call, organised by staff only, with a proposal by someone else
    const second = await openCall(api, setup, { title: "Chamada da diretoria" })
    expectOk(await api.post(`/api/call4papers/${second.id}/publish`, undefined, asIn(setup, setup.people.staff)))
    const outsider = await setup.addMember("member", "Olga Outsider")
    const hidden = expectCreated(
      await api.post(
        `/api/call4papers/${second.id}/submissions`,
        { title: "Proposta da diretoria", abstract: "Só a diretoria vê." },
        asIn(setup, outsider)
      )
    )
    expectOk(await api.post(`/api/call4papers/submissions/${hidden.id}/submit`, undefined, asIn(setup, outsider)))
    // the owner of the first call is not an organiser of the second: the detail is refused …
    expectError(await api.get(`/api/call4papers/submissions/${hidden.id}`, asIn(setup, callOwner)), 403)
    // … and the bank does not show it either
    const bank = expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(setup, callOwner))) as Array<{
      profileId: string
      submissions: Array<{ id: string }>
    }>
    const ids = bank.flatMap((person) => person.submissions.map((s) => s.id))
    expect(ids).toContain(mine.id)
    expect(ids).not.toContain(hidden.id)
    expect(bank.map((person) => person.profileId)).not.toContain(outsider.profileId)
    expect(bank.map((person) => person.profileId)).toEqual(expect.arrayContaining([proposer.profileId]))
    for (const person of bank) expect(person).not.toHaveProperty("email")
  })
})

describe("consent: staff acting as the speaker (X-ProfileId) cannot agree in the speaker's name", () => {
  it("the organisation's counter-offer is accepted by the speaker only, not by staff acting as them", async () => {
    const { staff, moderator, proposer } = setup.people
    const created = await negotiating(api, setup, { fee: 0, currency: "BRL" })
    const acting = actingAs(setup, moderator, proposer.profileId)
    expectError(await api.post(`/api/call4papers/submissions/${created.id}/accept`, undefined, acting), 403)
    expectError(
      await api.post(`/api/call4papers/submissions/${created.id}/speaker-counter`, { fee: 1 }, acting),
      403
    )
    expectError(
      await api.post(
        `/api/call4papers/submissions/${created.id}/accept`,
        undefined,
        actingAs(setup, staff, proposer.profileId)
      ),
      403
    )
    const still = expectOk(await api.get(`/api/call4papers/submissions/${created.id}`, asIn(setup, staff)))
    expect(still.status).toBe("em_negociacao")
    // the speaker themselves may
    const accepted = expectOk(
      await api.post(`/api/call4papers/submissions/${created.id}/accept`, undefined, asIn(setup, proposer))
    )
    expect(accepted.status).toBe("aceita")
  })
})

describe("a vote is personal: staff acting as a member (X-ProfileId) cannot vote in their name", () => {
  it("casting, replacing and removing a vote as someone else answer 403; the member's own vote stands", async () => {
    const { staff, moderator, member } = setup.people
    const created = await submitted(api, setup, { title: "Proposta votada" })
    const path = `/api/call4papers/submissions/${created.id}/vote`
    for (const acting of [actingAs(setup, moderator, member.profileId), actingAs(setup, staff, member.profileId)]) {
      expectError(await api.put(path, { vote: 1 }, acting), 403)
    }
    expectOk(await api.put(path, { vote: 4 }, asIn(setup, member)))
    expectError(await api.put(path, { vote: 1 }, actingAs(setup, moderator, member.profileId)), 403)
    expectError(await api.del(path, actingAs(setup, moderator, member.profileId)), 403)
    const rows = await query<{ vote: number }>(
      roda,
      (sql) => sql`SELECT vote FROM call4papers_votes WHERE submission_id = ${created.id}`
    )
    expect(rows.map((row) => row.vote)).toEqual([4])
  })
})

describe("another community's resources are 404, also with real ids", () => {
  it("every id-taking route answers 404 for a real id of another community", async () => {
    const { staff } = setup.people
    const foreign = await negotiating(api, other)
    const ownerRows = expectOk(
      await api.get(`/api/call4papers/${other.call.id}/owners`, asIn(other, other.people.staff))
    )
    const reviewerRows = expectOk(
      await api.get(`/api/call4papers/tracks/${other.trackA.id}/reviewers`, asIn(other, other.people.staff))
    )
    const day = expectCreated(
      await api.post(
        `/api/call4papers/${other.call.id}/event-dates`,
        { date: "2031-05-01" },
        asIn(other, other.people.staff)
      )
    )
    const me = asIn(setup, staff)
    const sid = foreign.id
    const requests: Array<[string, () => ReturnType<typeof api.get>]> = [
      ["GET call", () => api.get(`/api/call4papers/${other.call.id}`, me)],
      ["PUT call", () => api.put(`/api/call4papers/${other.call.id}`, { title: "x" }, me)],
      ["PATCH status", () => api.patch(`/api/call4papers/${other.call.id}/status`, { status: "closed" }, me)],
      ["close", () => api.post(`/api/call4papers/${other.call.id}/close`, undefined, me)],
      ["tracks", () => api.get(`/api/call4papers/${other.call.id}/tracks`, me)],
      ["new track", () => api.post(`/api/call4papers/${other.call.id}/tracks`, { name: "x" }, me)],
      ["PUT track", () => api.put(`/api/call4papers/tracks/${other.trackA.id}`, { name: "x" }, me)],
      ["reviewers", () => api.get(`/api/call4papers/tracks/${other.trackA.id}/reviewers`, me)],
      ["remove reviewer", () => api.del(`/api/call4papers/track-reviewers/${reviewerRows[0].id}`, me)],
      [
        "accept reviewer",
        () => api.post(`/api/call4papers/track-reviewers/${reviewerRows[0].id}/accept`, undefined, me)
      ],
      ["owners", () => api.get(`/api/call4papers/${other.call.id}/owners`, me)],
      ["remove owner", () => api.del(`/api/call4papers/owners/${ownerRows[0].id}`, me)],
      ["decline owner", () => api.post(`/api/call4papers/owners/${ownerRows[0].id}/decline`, undefined, me)],
      ["PUT day", () => api.put(`/api/call4papers/event-dates/${day.id}`, { date: "2031-05-02" }, me)],
      ["DELETE day", () => api.del(`/api/call4papers/event-dates/${day.id}`, me)],
      ["submissions", () => api.get(`/api/call4papers/${other.call.id}/submissions`, me)],
      [
        "submit to call",
        () => api.post(`/api/call4papers/${other.call.id}/submissions`, { title: "x", abstract: "y" }, me)
      ],
      ["ballot", () => api.get(`/api/call4papers/${other.call.id}/votable-submissions`, me)],
      ["vote results", () => api.get(`/api/call4papers/${other.call.id}/vote-results`, me)],
      ["review progress", () => api.get(`/api/call4papers/${other.call.id}/review-progress`, me)],
      [
        "invite speaker",
        () => api.post(`/api/call4papers/${other.call.id}/invite-speaker`, { profileId: staff.profileId }, me)
      ],
      ["detail", () => api.get(`/api/call4papers/submissions/${sid}`, me)],
      ["edit", () => api.put(`/api/call4papers/submissions/${sid}`, { title: "x" }, me)],
      ["review", () => api.put(`/api/call4papers/submissions/${sid}/review`, { score: 1 }, me)],
      ["reviews", () => api.get(`/api/call4papers/submissions/${sid}/reviews`, me)],
      ["vote", () => api.put(`/api/call4papers/submissions/${sid}/vote`, { vote: 1 }, me)],
      ["unvote", () => api.del(`/api/call4papers/submissions/${sid}/vote`, me)],
      ["negotiation", () => api.get(`/api/call4papers/submissions/${sid}/negotiation`, me)],
      [
        "counter-offer",
        () => api.post(`/api/call4papers/submissions/${sid}/counter-offer`, { fee: 1, currency: "BRL" }, me)
      ],
      ["retract", () => api.post(`/api/call4papers/submissions/${sid}/counter-offer/retract`, undefined, me)],
      ["decide", () => api.post(`/api/call4papers/submissions/${sid}/decide`, { decision: "refuse" }, me)],
      ["decline", () => api.post(`/api/call4papers/submissions/${sid}/decline`, undefined, me)],
      ["agreement", () => api.get(`/api/call4papers/submissions/${sid}/agreement`, me)]
    ]
    for (const [name, request] of requests) {
      const reply = await request()
      expect({ name, status: reply.status }).toEqual({ name, status: 404 })
    }
    // nothing moved over there
    const after = expectOk(await api.get(`/api/call4papers/submissions/${sid}`, asIn(other, other.people.staff)))
    expect(after.status).toBe("em_negociacao")
    expect(expectOk(await api.get(`/api/call4papers/${other.call.id}`, asIn(other, other.people.staff))).status).toBe(
      "published"
    )
  })
})

describe("races and retries", () => {
  it("parallel invitations of one person as owner or reviewer leave one invitation", async () => {
    const { staff } = setup.people
    const person = await setup.addMember("member", "Pietra Paralela")
    const owners = await Promise.all(
      Array.from(
        { length: 4 },
        () => api.post(`/api/call4papers/${setup.call.id}/owners`, { profileId: person.profileId }, asIn(setup, staff))
      )
    )
    expect(owners.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409])
    const reviewers = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.post(
          `/api/call4papers/tracks/${setup.trackB.id}/reviewers`,
          { profileId: person.profileId },
          asIn(setup, staff)
        ))
    )
    expect(reviewers.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409])
    const rows = await query<{ owners: number; reviewers: number }>(
      roda,
      (sql) =>
        sql`SELECT (SELECT count(*)::int FROM call4papers_owners WHERE profile_id = ${person.profileId}) AS owners,
        (SELECT count(*)::int FROM call4papers_track_reviewers WHERE profile_id = ${person.profileId}) AS reviewers`
    )
    expect(rows[0]).toEqual({ owners: 1, reviewers: 1 })
  })

  it("parallel acceptances of one reviewer invitation settle once", async () => {
    const person = await setup.addMember("member", "Renata Repetida")
    const invited = expectCreated(
      await api.post(
        `/api/call4papers/tracks/${setup.trackA.id}/reviewers`,
        { profileId: person.profileId },
        asIn(setup, setup.people.staff)
      )
    )
    const replies = await Promise.all(
      Array.from(
        { length: 4 },
        () => api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, asIn(setup, person))
      )
    )
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409])
  })

  it("parallel submits, acceptances and speaker invitations pass their check once", async () => {
    const { staff, proposer } = setup.people
    const draft = expectCreated(
      await api.post(
        `/api/call4papers/${setup.call.id}/submissions`,
        { title: "Corrida", abstract: "Duas vezes?" },
        asIn(setup, proposer)
      )
    )
    const submits = await Promise.all(
      Array.from(
        { length: 3 },
        () => api.post(`/api/call4papers/submissions/${draft.id}/submit`, undefined, asIn(setup, proposer))
      )
    )
    expect(submits.map((reply) => reply.status).sort()).toEqual([200, 409, 409])
    const negotiated = await negotiating(api, setup)
    const accepts = await Promise.all(
      Array.from(
        { length: 3 },
        () => api.post(`/api/call4papers/submissions/${negotiated.id}/accept`, undefined, asIn(setup, proposer))
      )
    )
    expect(accepts.map((reply) => reply.status).sort()).toEqual([200, 409, 409])
    const offers = await query<{ status: string }>(
      roda,
      (sql) => sql`SELECT status FROM call4papers_offers WHERE submission_id = ${negotiated.id}`
    )
    expect(offers.map((row) => row.status)).toEqual(["accepted"])
    const call = await openCall(api, setup, { title: "Convites paralelos" })
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, asIn(setup, staff)))
    const invites = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          api.post(`/api/call4papers/${call.id}/invite-speaker`, { profileId: proposer.profileId }, asIn(setup, staff))
      )
    )
    expect(invites.map((reply) => reply.status).sort()).toEqual([201, 409, 409])
  })

  it("a retried POST with one Idempotency-Key creates one submission", async () => {
    const key = `c4p-${Date.now()}-${Math.random().toString(36).slice(2)}`
    const send = () =>
      api.post(
        `/api/call4papers/${setup.call.id}/submissions`,
        { title: "Uma só vez", abstract: "Repetida pela rede." },
        { ...asIn(setup, setup.people.member), headers: { "idempotency-key": key } }
      )
    const first = expectCreated(await send())
    const again = await Promise.all([send(), send()])
    for (const reply of again) expect(reply.body.data?.id).toBe(first.id)
    const rows = await query<{ count: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS count FROM call4papers_submissions
        WHERE call_id = ${setup.call.id} AND title = 'Uma só vez'`
    )
    expect(rows[0]!.count).toBe(1)
  })
})

describe("input", () => {
  it("bad ids, bodies and queries answer 400 with errors[].param, never 500", async () => {
    const me = asIn(setup, setup.people.staff)
    const created = await submitted(api, setup)
    const cases: Array<[string, () => ReturnType<typeof api.get>, string, "body" | "query" | "params"]> = [
      [
        "list trackId",
        () => api.get(`/api/call4papers/${setup.call.id}/submissions?trackId=nope`, me),
        "trackId",
        "query"
      ],
      [
        "list status",
        () => api.get(`/api/call4papers/${setup.call.id}/submissions?status=lost`, me),
        "status",
        "query"
      ],
      ["cursor", () => api.get(`/api/call4papers/${setup.call.id}/submissions?cursor=%%%`, me), "cursor", "query"],
      [
        "vote text",
        () => api.put(`/api/call4papers/submissions/${created.id}/vote`, { vote: "5" }, me),
        "vote",
        "body"
      ],
      [
        "review 0",
        () => api.put(`/api/call4papers/submissions/${created.id}/review`, { score: 0 }, me),
        "score",
        "body"
      ],
      [
        "decide",
        () => api.post(`/api/call4papers/submissions/${created.id}/decide`, { decision: "maybe" }, me),
        "decision",
        "body"
      ],
      [
        "fee float",
        () => api.post(`/api/call4papers/submissions/${created.id}/counter-offer`, { fee: 1.5, currency: "BRL" }, me),
        "fee",
        "body"
      ],
      [
        "co-speakers",
        () =>
          api.post(
            `/api/call4papers/${setup.call.id}/submissions`,
            { title: "x", abstract: "y", coSpeakers: ["nope"] },
            me
          ),
        "coSpeakers.0",
        "body"
      ],
      ["owner id", () => api.post(`/api/call4papers/owners/nope/accept`, undefined, me), "ownerId", "params"],
      [
        "reviewer body",
        () => api.post(`/api/call4papers/tracks/${setup.trackA.id}/reviewers`, { profileId: 7 }, me),
        "profileId",
        "body"
      ],
      [
        "space mode",
        () => api.put(`/api/call4papers/spaces/${setup.space.id}`, { mode: "everyone" }, me),
        "mode",
        "body"
      ],
      [
        "call status",
        () => api.patch(`/api/call4papers/${setup.call.id}/status`, { status: "archived" }, me),
        "status",
        "body"
      ]
    ]
    for (const [name, request, param, location] of cases) {
      const reply = await request()
      expect({ name, status: reply.status }).toEqual({ name, status: 400 })
      expectInvalid(reply, param, location)
    }
  })
})

describe("no one decides on their own proposal", () => {
  it("an organiser who proposes gets 403 on the organisation's side of it; another organiser decides", async () => {
    const { callOwner, staff, moderator } = setup.people
    const own = await submitted(api, setup, { title: "Proposta do organizador" }, callOwner)
    const path = `/api/call4papers/submissions/${own.id}`
    const terms = { format: "talk", durationMinutes: 30 }
    const refused =
      "Você não pode decidir nem negociar pela organização sobre a sua própria proposta; outro organizador da chamada o faz."
    expectError(await api.post(`${path}/counter-offer`, terms, asIn(setup, callOwner)), 403, refused)
    expectError(await api.post(`${path}/decide`, { decision: "accept" }, asIn(setup, callOwner)), 403, refused)
    expectError(await api.post(`${path}/decline`, undefined, asIn(setup, callOwner)), 403, refused)
    // as the speaker they may still counter the organisation's offer; accepting their own counter as organiser: 403
    expectOk(await api.post(`${path}/counter-offer`, terms, asIn(setup, moderator)))
    expectOk(await api.post(`${path}/speaker-counter`, { ...terms, durationMinutes: 45 }, asIn(setup, callOwner)))
    expectError(await api.post(`${path}/accept`, undefined, asIn(setup, callOwner)), 403, refused)
    // another organiser of the call decides
    const decided = expectOk(await api.post(`${path}/decide`, { decision: "accept" }, asIn(setup, staff)))
    expect(decided.status).toBe("aceita")
  })
})
