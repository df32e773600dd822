import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { CALL_NOT_FOUND, openCall } from "./calls-support"
import {
  asIn,
  type C4PSetup,
  c4pSetup,
  CANNOT_SEE,
  draft,
  NOT_REVIEWER,
  ORGANISER_REQUIRED,
  SUBMISSION_NOT_FOUND,
  submitted
} from "./submissions-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: C4PSetup
let other: C4PSetup
beforeAll(async () => {
  setup = await c4pSetup(api)
  other = await c4pSetup(api, "Outra C4P")
}, 120_000)

const path = (id: string, rest = "") => `/api/call4papers/submissions/${id}${rest}`
const callPath = (rest: string) => `/api/call4papers/${setup.call.id}${rest}`

describe("PUT /api/call4papers/submissions/{sid}/review", () => {
  it("reviewers of the track and organisers upsert their review; others are refused", async () => {
    const { staff, moderator, callOwner, reviewerA, reviewerB, proposer, coSpeaker, member } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    const review = (person: { token: string }, body: unknown) =>
      api.put(path(created.id, "/review"), body, asIn(setup, person))
    const first = expectOk(await review(reviewerA, { score: 4, comment: "Boa" }), 200, "Avaliação registrada.")
    expect(first).toMatchObject({ submissionId: created.id, score: 4, comment: "Boa", reviewerName: "Rita Reviewer-A" })
    const replaced = expectOk(await review(reviewerA, { score: 5 }))
    expect(replaced).toMatchObject({ score: 5, comment: null })
    expectOk(await review(staff, { score: 2, comment: "Fraca" }))
    expectOk(await review(callOwner, { score: 3 }))
    expectOk(await review(moderator, { score: 3 }))
    expectError(await review(reviewerB, { score: 3 }), 403, NOT_REVIEWER)
    expectError(await review(member, { score: 3 }), 403, NOT_REVIEWER)
    for (const speaker of [proposer, coSpeaker]) {
      expectError(await review(speaker, { score: 5 }), 403, "Você não pode avaliar a sua própria proposta.")
    }
    for (const score of [0, 6, 2.5, "4", null]) expectInvalid(await review(reviewerA, { score }), "score")
    expectInvalid(await review(reviewerA, {}), "score")
    const rows = await query(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM call4papers_reviews WHERE submission_id = ${created.id}`
    )
    expect(rows[0]!.n).toBe(4)
  })

  it("drafts are 404, withdrawn and decided submissions 409, other communities 404", async () => {
    const { reviewerA, proposer, staff } = setup.people
    const draftOne = await draft(api, setup)
    expectError(
      await api.put(path(draftOne.id, "/review"), { score: 3 }, asIn(setup, reviewerA)),
      404,
      SUBMISSION_NOT_FOUND
    )
    const gone = await submitted(api, setup)
    expectOk(await api.post(path(gone.id, "/withdraw"), undefined, asIn(setup, proposer)))
    const refused = expectError(await api.put(path(gone.id, "/review"), { score: 3 }, asIn(setup, reviewerA)), 409)
    expect(refused.errors[0].param).toBe("status")
    const decided = await submitted(api, setup)
    expectOk(await api.post(path(decided.id, "/decide"), { decision: "refuse" }, asIn(setup, staff)))
    expectError(await api.put(path(decided.id, "/review"), { score: 3 }, asIn(setup, reviewerA)), 409)
    expectError(await api.put(path(gone.id, "/review"), { score: 3 }, asIn(other, other.people.staff)), 404)
  })
})

describe("GET /api/call4papers/submissions/{sid}/reviews", () => {
  it("consolidates mean, count and distribution; reviewer names hidden from the speakers", async () => {
    const { staff, callOwner, reviewerA, reviewerB, proposer, coSpeaker, member } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    const empty = expectOk(await api.get(path(created.id, "/reviews"), asIn(setup, staff)))
    expect(empty).toMatchObject({ count: 0, mean: null, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } })
    expectOk(await api.put(path(created.id, "/review"), { score: 4, comment: "Sólida" }, asIn(setup, reviewerA)))
    expectOk(await api.put(path(created.id, "/review"), { score: 5 }, asIn(setup, staff)))
    expectOk(await api.put(path(created.id, "/review"), { score: 4 }, asIn(setup, callOwner)))
    const full = expectOk(
      await api.get(path(created.id, "/reviews"), asIn(setup, staff)),
      200,
      "Avaliações consolidadas."
    )
    expect(full).toMatchObject({
      submissionId: created.id,
      count: 3,
      mean: 4.33,
      distribution: { "1": 0, "2": 0, "3": 0, "4": 2, "5": 1 },
      reviewerNamesHidden: false
    })
    expect(full.reviews.map((r: { reviewerName: string }) => r.reviewerName)).toContain("Rita Reviewer-A")
    const byReviewer = expectOk(await api.get(path(created.id, "/reviews"), asIn(setup, reviewerA)))
    expect(byReviewer.reviewerNamesHidden).toBe(false)
    for (const speaker of [proposer, coSpeaker]) {
      const seen = expectOk(await api.get(path(created.id, "/reviews"), asIn(setup, speaker)))
      expect(seen).toMatchObject({ count: 3, mean: 4.33, reviewerNamesHidden: true })
      for (const review of seen.reviews) expect(review).toMatchObject({ reviewerProfileId: null, reviewerName: null })
      expect(seen.reviews.map((r: { comment: string | null }) => r.comment)).toContain("Sólida")
    }
    for (const person of [reviewerB, member]) {
      expectError(await api.get(path(created.id, "/reviews"), asIn(setup, person)), 403, CANNOT_SEE)
    }
    expectError(await api.get(path(created.id, "/reviews"), asIn(other, other.people.staff)), 404)
  })

  it("with anonymous reviews, reviewers see neither the speakers nor each other's names", async () => {
    const { staff, reviewerA } = setup.people
    const call = await openCall(api, setup, { title: "Anônima", anonymousReviews: true })
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, asIn(setup, staff)))
    const track = expectOk(
      await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Geral" }, asIn(setup, staff)),
      201
    )
    const invited = expectOk(
      await api.post(
        `/api/call4papers/tracks/${track.id}/reviewers`,
        { profileId: reviewerA.profileId },
        asIn(setup, staff)
      ),
      201
    )
    expectOk(await api.post(`/api/call4papers/track-reviewers/${invited.id}/accept`, undefined, asIn(setup, reviewerA)))
    const created = expectOk(
      await api.post(
        `/api/call4papers/${call.id}/submissions`,
        { title: "Anon", abstract: "A", trackId: track.id },
        asIn(setup, setup.people.proposer)
      ),
      201
    )
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, setup.people.proposer)))
    const seen = expectOk(await api.get(path(created.id), asIn(setup, reviewerA)))
    expect(seen.proposer).toBeNull()
    expect(expectOk(await api.get(path(created.id), asIn(setup, staff))).proposer.fullName).toBe("Paula Proposer")
    expectOk(await api.put(path(created.id, "/review"), { score: 3 }, asIn(setup, staff)))
    const reviews = expectOk(await api.get(path(created.id, "/reviews"), asIn(setup, reviewerA)))
    expect(reviews.reviewerNamesHidden).toBe(true)
    expect(reviews.reviews[0].reviewerName).toBeNull()
    const queue = expectOk(await api.get("/api/call4papers/me/reviews?limit=100", asIn(setup, reviewerA)))
    expect(queue.find((s: { id: string }) => s.id === created.id).proposer).toBeNull()
  })
})

describe("GET /api/call4papers/me/reviews and /{id}/review-progress", () => {
  it("the queue holds the open submissions of the caller's tracks with their own review", async () => {
    const { reviewerA, reviewerB, member } = setup.people
    const onA = await submitted(api, setup, { trackId: setup.trackA.id })
    const onB = await submitted(api, setup, { trackId: setup.trackB.id })
    const queueOf = async (person: { token: string }, q = "") =>
      expectOk(
        await api.get(`/api/call4papers/me/reviews?limit=100${q}`, asIn(setup, person)),
        200,
        "Fila de avaliação."
      )
    const a = await queueOf(reviewerA)
    expect(a.map((s: { id: string }) => s.id)).toContain(onA.id)
    expect(a.map((s: { id: string }) => s.id)).not.toContain(onB.id)
    expect(a.find((s: { id: string }) => s.id === onA.id).myReview).toBeNull()
    expectOk(await api.put(path(onA.id, "/review"), { score: 2, comment: "ok" }, asIn(setup, reviewerA)))
    const after = await queueOf(reviewerA)
    expect(after.find((s: { id: string }) => s.id === onA.id).myReview).toMatchObject({ score: 2, comment: "ok" })
    expect((await queueOf(reviewerA, "&pending=true")).map((s: { id: string }) => s.id)).not.toContain(onA.id)
    expect((await queueOf(reviewerB)).map((s: { id: string }) => s.id)).toContain(onB.id)
    expect(await queueOf(member)).toEqual([])
  })

  it("review progress per track and per reviewer, organisers only", async () => {
    const fresh = await c4pSetup(api, "Progresso")
    const { staff, callOwner, reviewerA, reviewerB, proposer, member } = fresh.people
    const one = await submitted(api, fresh, { trackId: fresh.trackA.id })
    await submitted(api, fresh, { trackId: fresh.trackA.id })
    await submitted(api, fresh, { trackId: fresh.trackB.id })
    await draft(api, fresh, { trackId: fresh.trackB.id })
    expectOk(await api.put(path(one.id, "/review"), { score: 4 }, asIn(fresh, reviewerA)))
    expectOk(await api.put(path(one.id, "/review"), { score: 3 }, asIn(fresh, staff)))
    const progress = expectOk(
      await api.get(`/api/call4papers/${fresh.call.id}/review-progress`, asIn(fresh, callOwner)),
      200,
      "Progresso das avaliações."
    )
    expect(progress.tracks).toEqual([
      { trackId: fresh.trackA.id, name: "Backend", total: 2, reviewed: 1, reviews: 2 },
      { trackId: fresh.trackB.id, name: "Frontend", total: 1, reviewed: 0, reviews: 0 }
    ])
    expect(progress.reviewers).toEqual(expect.arrayContaining([
      {
        profileId: reviewerA.profileId,
        fullName: "Rita Reviewer-A",
        trackIds: [fresh.trackA.id],
        total: 2,
        reviewed: 1
      },
      { profileId: reviewerB.profileId, fullName: "Rui Reviewer-B", trackIds: [fresh.trackB.id], total: 1, reviewed: 0 }
    ]))
    for (const person of [reviewerA, proposer, member]) {
      expectError(
        await api.get(`/api/call4papers/${fresh.call.id}/review-progress`, asIn(fresh, person)),
        403,
        ORGANISER_REQUIRED
      )
    }
    expectError(
      await api.get(`/api/call4papers/${fresh.call.id}/review-progress`, asIn(setup, setup.people.staff)),
      404
    )
  })
})

describe("open community vote", () => {
  it("PUT /vote takes an integer 1..5 (400 for 0, 6, 2.5), one per person, replaced; DELETE removes it", async () => {
    const { member, reviewerB, proposer, coSpeaker } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    const vote = (person: { token: string }, body: unknown) =>
      api.put(path(created.id, "/vote"), body, asIn(setup, person))
    for (const value of [0, 6, 2.5, -1, "3", null, true]) {
      const error = expectInvalid(await vote(member, { vote: value }), "vote")
      expect(error.errors[0].msg).toBe("vote must be an integer between 1 and 5")
    }
    expectInvalid(await vote(member, {}), "vote")
    expect(expectOk(await vote(member, { vote: 1 }), 200, "Voto registrado.")).toEqual({
      submissionId: created.id,
      vote: 1
    })
    expect(expectOk(await vote(member, { vote: 5 })).vote).toBe(5)
    expectOk(await vote(reviewerB, { vote: 4 }))
    for (const speaker of [proposer, coSpeaker]) {
      expectError(await vote(speaker, { vote: 5 }), 403, "Você não pode votar na sua própria proposta.")
    }
    const votes = await query(
      roda,
      (sql) => sql`SELECT profile_id, vote FROM call4papers_votes WHERE submission_id = ${created.id} ORDER BY vote`
    )
    expect(votes.map((row) => [row.profileId, row.vote])).toEqual([[reviewerB.profileId, 4], [member.profileId, 5]])
    expect(expectOk(await api.del(path(created.id, "/vote"), asIn(setup, member)), 200, "Voto removido.")).toEqual({
      submissionId: created.id,
      vote: null,
      removed: true
    })
    expect(expectOk(await api.del(path(created.id, "/vote"), asIn(setup, member))).removed).toBe(false)
    expectError(await vote(other.people.member, { vote: 3 }), 403)
    expectError(await api.put(path(created.id, "/vote"), { vote: 3 }, asIn(other, other.people.member)), 404)
    expectError(await api.put(path(created.id, "/vote"), { vote: 3 }, { community: setup.community.id }), 401)
  })

  it("two votes of one person at once leave one vote", async () => {
    const created = await submitted(api, setup)
    const replies = await Promise.all(
      [1, 2, 3, 4, 5].map((vote) => api.put(path(created.id, "/vote"), { vote }, asIn(setup, setup.people.member)))
    )
    for (const reply of replies) expect(reply.status).toBe(200)
    const votes = await query(
      roda,
      (sql) => sql`SELECT vote FROM call4papers_votes WHERE submission_id = ${created.id}`
    )
    expect(votes).toHaveLength(1)
  })

  it("only open submissions of calls with community voting take votes; drafts are 404", async () => {
    const { member, proposer, staff } = setup.people
    const ownDraft = await draft(api, setup)
    expectError(await api.put(path(ownDraft.id, "/vote"), { vote: 3 }, asIn(setup, member)), 404, SUBMISSION_NOT_FOUND)
    const decided = await submitted(api, setup)
    expectOk(await api.post(path(decided.id, "/decide"), { decision: "accept" }, asIn(setup, staff)))
    const closed = expectError(await api.put(path(decided.id, "/vote"), { vote: 3 }, asIn(setup, member)), 409)
    expect(closed.errors[0].param).toBe("status")
    const quiet = await openCall(api, setup, { title: "Sem votação" })
    expectOk(await api.post(`/api/call4papers/${quiet.id}/publish`, undefined, asIn(setup, staff)))
    const created = expectOk(
      await api.post(`/api/call4papers/${quiet.id}/submissions`, { title: "Q", abstract: "A" }, asIn(setup, proposer)),
      201
    )
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, proposer)))
    const off = expectError(
      await api.put(path(created.id, "/vote"), { vote: 3 }, asIn(setup, member)),
      409,
      "A votação da comunidade não está aberta nesta chamada."
    )
    expect(off.errors[0].param).toBe("communityVoting")
    expectError(await api.get(`/api/call4papers/${quiet.id}/votable-submissions`, asIn(setup, member)), 409)
  })

  it("a call back in draft hides its submissions from voters (404), not from its speakers or organisers", async () => {
    const { staff, member, proposer } = setup.people
    const call = await openCall(api, setup, { title: "Volta a rascunho", communityVoting: true })
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, asIn(setup, staff)))
    const created = expectOk(
      await api.post(`/api/call4papers/${call.id}/submissions`, { title: "V", abstract: "A" }, asIn(setup, proposer)),
      201
    )
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, proposer)))
    expectOk(await api.put(path(created.id, "/vote"), { vote: 4 }, asIn(setup, member)))
    expectOk(await api.post(`/api/call4papers/${call.id}/unpublish`, undefined, asIn(setup, staff)))
    expectError(await api.put(path(created.id, "/vote"), { vote: 5 }, asIn(setup, member)), 404, SUBMISSION_NOT_FOUND)
    expectError(
      await api.get(`/api/call4papers/${call.id}/votable-submissions`, asIn(setup, member)),
      404,
      CALL_NOT_FOUND
    )
    expectOk(await api.get(path(created.id), asIn(setup, proposer)))
    expectOk(await api.get(path(created.id), asIn(setup, staff)))
  })

  it("the ballot lists the open submissions but the caller's own, with their vote; results for organisers", async () => {
    const fresh = await c4pSetup(api, "Votação")
    const { staff, callOwner, member, reviewerA, proposer } = fresh.people
    const good = await submitted(api, fresh, { title: "Boa" })
    const weak = await submitted(api, fresh, { title: "Fraca" })
    const mineToo = await submitted(api, fresh, { title: "Minha" }, member)
    await draft(api, fresh, { title: "Rascunho" })
    const ballot = expectOk(
      await api.get(`/api/call4papers/${fresh.call.id}/votable-submissions`, asIn(fresh, member)),
      200,
      "Propostas em votação."
    )
    expect(ballot.map((s: { title: string }) => s.title)).toEqual(["Boa", "Fraca"])
    expect(ballot.every((s: { myVote: number | null }) => s.myVote === null)).toBe(true)
    for (
      const [person, id, vote] of [
        [member, good.id, 5],
        [reviewerA, good.id, 4],
        [staff, good.id, 5],
        [member, weak.id, 2],
        [proposer, mineToo.id, 1]
      ] as const
    ) {
      expectOk(await api.put(path(id, "/vote"), { vote }, asIn(fresh, person)))
    }
    const voted = expectOk(await api.get(`/api/call4papers/${fresh.call.id}/votable-submissions`, asIn(fresh, member)))
    expect(voted.map((s: { myVote: number }) => s.myVote)).toEqual([5, 2])
    const results = expectOk(
      await api.get(`/api/call4papers/${fresh.call.id}/vote-results`, asIn(fresh, callOwner)),
      200,
      "Resultado da votação."
    )
    expect(results.results.map((r: { title: string; count: number; mean: number }) => [r.title, r.count, r.mean]))
      .toEqual([
        ["Boa", 3, 4.67],
        ["Fraca", 1, 2],
        ["Minha", 1, 1]
      ])
    expect(results.results[0].distribution).toEqual({ "1": 0, "2": 0, "3": 0, "4": 1, "5": 2 })
    for (const person of [member, reviewerA, proposer]) {
      expectError(
        await api.get(`/api/call4papers/${fresh.call.id}/vote-results`, asIn(fresh, person)),
        403,
        ORGANISER_REQUIRED
      )
    }
    expectError(
      await api.get(`/api/call4papers/${fresh.call.id}/vote-results`, asIn(setup, setup.people.staff)),
      404,
      CALL_NOT_FOUND
    )
    expectError(
      await api.get(`/api/call4papers/${fresh.call.id}/votable-submissions`, asIn(other, other.people.member)),
      404
    )
    expectError(await api.get(callPath("/votable-submissions"), { community: setup.community.id }), 401)
  })
})
