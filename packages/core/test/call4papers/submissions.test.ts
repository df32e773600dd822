import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { CALL_NOT_FOUND, openCall } from "./calls-support"
import {
  asIn,
  type C4PSetup,
  c4pSetup,
  CANNOT_SEE,
  draft,
  ONLY_PROPOSER,
  ORGANISER_REQUIRED,
  statusOf,
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

describe("POST /api/call4papers/{id}/submissions", () => {
  it("creates a draft with co-speakers, version 1, kept as the first version", async () => {
    const { coSpeaker, proposer } = setup.people
    const data = await draft(api, setup, { coSpeakers: [coSpeaker.profileId] })
    expect(data).toMatchObject({
      callId: setup.call.id,
      trackId: setup.trackA.id,
      trackName: "Backend",
      status: "rascunho",
      version: 1,
      proposer: { profileId: proposer.profileId, fullName: "Paula Proposer" },
      coSpeakers: [{ profileId: coSpeaker.profileId, fullName: "Caio Co-Speaker" }],
      allowedMoves: ["edit", "submit", "withdraw"]
    })
    expect(data.versions).toHaveLength(1)
    expect(data.versions[0]).toMatchObject({
      version: 1,
      title: "Effect na prática",
      coSpeakerProfileIds: [coSpeaker.profileId]
    })
    // the co-speaker sees it too (their own), others do not see a draft at all
    expectOk(await api.get(path(data.id), asIn(setup, coSpeaker)))
    expectError(await api.get(path(data.id), asIn(setup, setup.people.staff)), 404, SUBMISSION_NOT_FOUND)
    expectError(await api.get(path(data.id), asIn(setup, setup.people.member)), 404, SUBMISSION_NOT_FOUND)
  })

  it("answers 400 with errors[].param for bad input: unknown track, bad co-speakers, missing fields", async () => {
    const post = (body: Record<string, unknown>) =>
      api.post(callPath("/submissions"), { title: "T", abstract: "A", ...body }, asIn(setup, setup.people.proposer))
    const unknownTrack = expectInvalid(await post({ trackId: unknownId() }), "trackId")
    expect(unknownTrack.message).toBe("Trilha não encontrada nesta chamada.")
    expectInvalid(await post({ trackId: other.trackA.id }), "trackId")
    expectInvalid(await post({ trackId: "nope" }), "trackId")
    expectInvalid(await post({ coSpeakers: [unknownId()] }), "coSpeakers")
    expectInvalid(await post({ coSpeakers: [other.people.member.profileId] }), "coSpeakers")
    expectInvalid(await post({ coSpeakers: [setup.people.proposer.profileId] }), "coSpeakers")
    expectInvalid(await post({ title: "" }), "title")
    expectInvalid(
      await api.post(callPath("/submissions"), { title: "T" }, asIn(setup, setup.people.proposer)),
      "abstract"
    )
    expectInvalid(await post({ extra: 1 }), "extra")
  })

  it("refuses calls that are not open (409), drafts of others (404), other communities and bad ids", async () => {
    const draftCall = await openCall(api, setup)
    const body = { title: "T", abstract: "A" }
    // a draft call: 404 for a plain member, 409 for an organiser (it is not open)
    expectError(
      await api.post(`/api/call4papers/${draftCall.id}/submissions`, body, asIn(setup, setup.people.member)),
      404,
      CALL_NOT_FOUND
    )
    const refused = expectError(
      await api.post(`/api/call4papers/${draftCall.id}/submissions`, body, asIn(setup, setup.people.staff)),
      409
    )
    expect(refused.errors[0].param).toBe("status")
    expectError(
      await api.post(`/api/call4papers/${other.call.id}/submissions`, body, asIn(setup, setup.people.member)),
      404,
      CALL_NOT_FOUND
    )
    expectInvalid(
      await api.post("/api/call4papers/nope/submissions", body, asIn(setup, setup.people.member)),
      "id",
      "params"
    )
    expectError(await api.post(callPath("/submissions"), body, { community: setup.community.id }), 401)
    expectError(await api.post(callPath("/submissions"), body, asIn(setup, other.people.member)), 403)
  })
})

describe("PUT /api/call4papers/submissions/{sid} and the draft moves", () => {
  it("the proposer edits only in rascunho, every edit is a kept version; 409 after submit", async () => {
    const { proposer, coSpeaker } = setup.people
    const created = await draft(api, setup)
    const edited = expectOk(
      await api.put(
        path(created.id),
        { title: "Effect em produção", trackId: setup.trackB.id, coSpeakers: [coSpeaker.profileId] },
        asIn(setup, proposer)
      ),
      200,
      "Proposta atualizada."
    )
    expect(edited).toMatchObject({ title: "Effect em produção", trackId: setup.trackB.id, version: 2 })
    expect(edited.coSpeakers.map((s: { profileId: string }) => s.profileId)).toEqual([coSpeaker.profileId])
    expect(edited.versions.map((v: { version: number; title: string }) => [v.version, v.title])).toEqual([
      [1, "Effect na prática"],
      [2, "Effect em produção"]
    ])
    // co-speaker and organisers may not edit
    expectError(await api.put(path(created.id), { title: "X" }, asIn(setup, coSpeaker)), 403, ONLY_PROPOSER)
    expectInvalid(await api.put(path(created.id), { trackId: unknownId() }, asIn(setup, proposer)), "trackId")
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, proposer)), 200, "Proposta enviada.")
    const refused = expectError(await api.put(path(created.id), { title: "Tarde" }, asIn(setup, proposer)), 409)
    expect(refused.errors[0].param).toBe("status")
    expect(refused.message).toContain("edit")
    expect(refused.message).toContain("withdraw")
    expectError(await api.put(path(created.id), { title: "X" }, asIn(setup, setup.people.staff)), 403, ONLY_PROPOSER)
    const detail = expectOk(await api.get(path(created.id), asIn(setup, proposer)))
    expect(detail.versions).toHaveLength(2)
  })

  it("submit: only the proposer, only from rascunho; withdraw: only the proposer, final", async () => {
    const { proposer, coSpeaker, staff } = setup.people
    const created = await draft(api, setup, { coSpeakers: [coSpeaker.profileId] })
    expectError(await api.post(path(created.id, "/submit"), undefined, asIn(setup, coSpeaker)), 403, ONLY_PROPOSER)
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, proposer)))
    const again = expectError(await api.post(path(created.id, "/submit"), undefined, asIn(setup, proposer)), 409)
    expect(again.errors[0].param).toBe("status")
    expectError(await api.post(path(created.id, "/withdraw"), undefined, asIn(setup, staff)), 403, ONLY_PROPOSER)
    const withdrawn = expectOk(
      await api.post(path(created.id, "/withdraw"), undefined, asIn(setup, proposer)),
      200,
      "Proposta retirada."
    )
    expect(withdrawn).toMatchObject({ status: "retirada", allowedMoves: [] })
    expect(withdrawn.withdrawnAt).not.toBeNull()
    for (const move of ["/withdraw", "/submit"]) {
      const refused = expectError(await api.post(path(created.id, move), undefined, asIn(setup, proposer)), 409)
      expect(refused.message).toContain("nenhum")
    }
    // a draft may be withdrawn too
    const second = await draft(api, setup)
    expect(expectOk(await api.post(path(second.id, "/withdraw"), undefined, asIn(setup, proposer))).status).toBe(
      "retirada"
    )
    // the organisation heard about the submission and the withdrawal
    const mails = await outboxFor(roda, setup.owner.email)
    expect(mails.map((mail) => mail.kind)).toEqual(
      expect.arrayContaining(["call4papers.submitted", "call4papers.withdrawn"])
    )
  })

  it("submitting after the call closed answers 409", async () => {
    const created = await draft(api, setup)
    const closing = await openCall(api, setup, { title: "Fecha logo" })
    expectOk(await api.post(`/api/call4papers/${closing.id}/publish`, undefined, asIn(setup, setup.people.staff)))
    const late = expectOk(
      await api.post(
        `/api/call4papers/${closing.id}/submissions`,
        { title: "Tarde", abstract: "A" },
        asIn(setup, setup.people.proposer)
      ),
      201
    )
    expectOk(await api.post(`/api/call4papers/${closing.id}/close`, undefined, asIn(setup, setup.people.staff)))
    const refused = expectError(
      await api.post(path(late.id, "/submit"), undefined, asIn(setup, setup.people.proposer)),
      409
    )
    expect(refused.errors[0].param).toBe("status")
    expect(await statusOf(api, setup, (await submitted(api, setup)).id)).toBe("enviada")
    expect(created.status).toBe("rascunho")
  })
})

describe("GET /api/call4papers/submissions/{sid}: who sees a submission", () => {
  it("organisers, reviewers of its track and speakers; reviewer of another track and other members 403", async () => {
    const created = await submitted(api, setup, { coSpeakers: [setup.people.coSpeaker.profileId] })
    const { staff, moderator, callOwner, reviewerA, reviewerB, proposer, coSpeaker, member } = setup.people
    for (const person of [staff, moderator, callOwner, reviewerA, proposer, coSpeaker]) {
      const data = expectOk(await api.get(path(created.id), asIn(setup, person)), 200, "Proposta encontrada.")
      expect(data.id).toBe(created.id)
    }
    expect(expectOk(await api.get(path(created.id), asIn(setup, reviewerA))).versions).toEqual([])
    for (const person of [reviewerB, member]) {
      expectError(await api.get(path(created.id), asIn(setup, person)), 403, CANNOT_SEE)
    }
    expectError(await api.get(path(created.id), { community: setup.community.id }), 401)
    expectError(await api.get(path(created.id), asIn(other, other.people.staff)), 404, SUBMISSION_NOT_FOUND)
    expectError(await api.get(path(unknownId()), asIn(setup, staff)), 404, SUBMISSION_NOT_FOUND)
    expectInvalid(await api.get(path("nope"), asIn(setup, staff)), "sid", "params")
  })

  it("a soft-deleted call takes its submissions with it (404 everywhere)", async () => {
    const call = await openCall(api, setup, { title: "Some logo" })
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, asIn(setup, setup.people.staff)))
    const created = expectOk(
      await api.post(
        `/api/call4papers/${call.id}/submissions`,
        { title: "T", abstract: "A" },
        asIn(setup, setup.people.proposer)
      ),
      201
    )
    expectOk(await api.post(path(created.id, "/submit"), undefined, asIn(setup, setup.people.proposer)))
    expectOk(await api.del(`/api/call4papers/${call.id}`, asIn(setup, setup.people.staff)))
    for (const person of [setup.people.staff, setup.people.proposer]) {
      expectError(await api.get(path(created.id), asIn(setup, person)), 404, SUBMISSION_NOT_FOUND)
      expectError(await api.post(path(created.id, "/withdraw"), undefined, asIn(setup, person)), 404)
      expectError(await api.put(path(created.id, "/vote"), { vote: 3 }, asIn(setup, setup.people.member)), 404)
    }
    expectError(
      await api.get(`/api/call4papers/${call.id}/submissions`, asIn(setup, setup.people.staff)),
      404,
      CALL_NOT_FOUND
    )
    const mine = expectOk(
      await api.get("/api/call4papers/me/submissions?limit=100", asIn(setup, setup.people.proposer))
    )
    expect(mine.map((s: { id: string }) => s.id)).not.toContain(created.id)
  })
})

describe("lists of submissions", () => {
  it("GET /{id}/submissions is contextual: organisers all (no drafts of others), reviewers their tracks, proposers their own", async () => {
    const { staff, callOwner, reviewerA, reviewerB, proposer, member } = setup.people
    const onA = await submitted(api, setup, { trackId: setup.trackA.id })
    const onB = await submitted(api, setup, { trackId: setup.trackB.id })
    const ownDraft = await draft(api, setup)
    const ids = async (person: { token: string }, query = "") =>
      (expectOk(await api.get(callPath(`/submissions?limit=100${query}`), asIn(setup, person))) as Array<
        { id: string }
      >)
        .map((s) => s.id)
    for (const organiser of [staff, callOwner]) {
      const seen = await ids(organiser)
      expect(seen).toEqual(expect.arrayContaining([onA.id, onB.id]))
      expect(seen).not.toContain(ownDraft.id)
    }
    const a = await ids(reviewerA)
    expect(a).toContain(onA.id)
    expect(a).not.toContain(onB.id)
    const b = await ids(reviewerB)
    expect(b).toContain(onB.id)
    expect(b).not.toContain(onA.id)
    expect(await ids(proposer)).toEqual(expect.arrayContaining([onA.id, onB.id, ownDraft.id]))
    expect(await ids(member)).toEqual([])
    // filters and keyset pagination
    expect(await ids(staff, `&trackId=${setup.trackB.id}`)).toEqual(expect.arrayContaining([onB.id]))
    expect(await ids(staff, `&trackId=${setup.trackB.id}`)).not.toContain(onA.id)
    expect(await ids(proposer, "&status=rascunho")).toContain(ownDraft.id)
    const first = await api.get(callPath("/submissions?limit=1"), asIn(setup, staff))
    expect(expectOk(first)).toHaveLength(1)
    const next = await api.get(
      callPath(`/submissions?limit=1&cursor=${first.body.pagination.nextCursor}`),
      asIn(setup, staff)
    )
    expect(expectOk(next)[0].id > expectOk(first)[0].id).toBe(true)
    expectInvalid(await api.get(callPath("/submissions?status=nope"), asIn(setup, staff)), "status", "query")
    expectInvalid(await api.get(callPath("/submissions?cursor=abc"), asIn(setup, staff)), "cursor", "query")
    expectError(await api.get(`/api/call4papers/${other.call.id}/submissions`, asIn(setup, staff)), 404, CALL_NOT_FOUND)
  })

  it("my-submissions and me/submissions list the caller's own, co-speaking included", async () => {
    const { proposer, coSpeaker, member } = setup.people
    const created = await draft(api, setup, { coSpeakers: [coSpeaker.profileId] })
    const own = expectOk(await api.get(callPath("/my-submissions?limit=100"), asIn(setup, proposer)))
    expect(own.map((s: { id: string }) => s.id)).toContain(created.id)
    const coOwn = expectOk(await api.get("/api/call4papers/me/submissions?limit=100", asIn(setup, coSpeaker)))
    expect(coOwn.map((s: { id: string }) => s.id)).toContain(created.id)
    expect(coOwn[0]).toHaveProperty("callTitle")
    expect(expectOk(await api.get("/api/call4papers/me/submissions", asIn(setup, member)))).toEqual([])
    expect(expectOk(await api.get(`/api/call4papers/${setup.call.id}/my-submissions`, asIn(setup, member)))).toEqual([])
    expectError(await api.get("/api/call4papers/me/submissions", { community: setup.community.id }), 401)
    expectError(await api.get(`/api/call4papers/${other.call.id}/my-submissions`, asIn(setup, proposer)), 404)
  })
})

describe("the speaker bank", () => {
  it("GET /speakers groups proposers by person with their proposals across calls; staff and call owners only", async () => {
    const { staff, callOwner, reviewerA, proposer, coSpeaker, member } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    const bank = expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(setup, staff))) as Array<{
      profileId: string
      fullName: string
      submissions: Array<{ id: string; role: string; callTitle: string }>
    }>
    const paula = bank.find((person) => person.profileId === proposer.profileId)!
    expect(paula.fullName).toBe("Paula Proposer")
    expect(paula.submissions.find((s) => s.id === created.id)).toMatchObject({
      role: "proposer",
      callTitle: "Chamada de palestras"
    })
    expect(paula).not.toHaveProperty("email")
    const caio = bank.find((person) => person.profileId === coSpeaker.profileId)!
    expect(caio.submissions.find((s) => s.id === created.id)?.role).toBe("co_speaker")
    expect(bank.find((person) => person.profileId === member.profileId)).toBeUndefined()
    expectOk(await api.get("/api/call4papers/speakers", asIn(setup, callOwner)))
    for (const person of [reviewerA, proposer, member]) {
      expectError(
        await api.get("/api/call4papers/speakers", asIn(setup, person)),
        403,
        "Apenas owner, admin, moderator ou donos de chamadas veem o banco de palestrantes."
      )
    }
    expect(
      expectOk(await api.get("/api/call4papers/speakers?limit=100", asIn(other, other.people.staff))).map(
        (person: { profileId: string }) => person.profileId
      )
    ).not.toContain(proposer.profileId)
  })

  it("POST /{id}/invite-speaker invites someone of the bank by e-mail, once", async () => {
    const { staff, callOwner, proposer, member } = setup.people
    await submitted(api, setup)
    const call = await openCall(api, setup, { title: "Segunda edição" })
    const invite = (person: { token: string }, body: Record<string, unknown>, id = call.id) =>
      api.post(`/api/call4papers/${id}/invite-speaker`, body, asIn(setup, person))
    const notPublished = expectError(await invite(staff, { profileId: proposer.profileId }), 409)
    expect(notPublished.errors[0].param).toBe("status")
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, asIn(setup, staff)))
    const data = expectOk(
      await invite(staff, { profileId: proposer.profileId, message: "Venha!" }),
      201,
      "Palestrante convidado."
    )
    expect(data).toMatchObject({ callId: call.id, profileId: proposer.profileId, message: "Venha!" })
    const mails = (await outboxFor(roda, proposer.email)).filter((mail) =>
      mail.kind === "call4papers.speaker-invitation"
    )
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain("Segunda edição")
    const twice = expectError(await invite(staff, { profileId: proposer.profileId }), 409)
    expect(twice.errors[0].param).toBe("profileId")
    const notInBank = expectError(await invite(staff, { profileId: member.profileId }), 400)
    expect(notInBank.errors[0].param).toBe("profileId")
    expectInvalid(await invite(staff, {}), "profileId")
    // the owner of another call is not an organiser of this one
    expectError(await invite(callOwner, { profileId: proposer.profileId }), 403, ORGANISER_REQUIRED)
    expectError(await invite(member, { profileId: proposer.profileId }), 403, ORGANISER_REQUIRED)
    expectError(await invite(staff, { profileId: proposer.profileId }, other.call.id), 404, CALL_NOT_FOUND)
  })
})

describe("the contract", () => {
  it("documents every submissions route of the spec in the OpenAPI document", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    const routes = [
      "get /api/call4papers/me/submissions",
      "get /api/call4papers/me/reviews",
      "get /api/call4papers/speakers",
      "post /api/call4papers/{id}/invite-speaker",
      "get /api/call4papers/submissions/{sid}",
      "put /api/call4papers/submissions/{sid}",
      "post /api/call4papers/submissions/{sid}/submit",
      "post /api/call4papers/submissions/{sid}/withdraw",
      "put /api/call4papers/submissions/{sid}/review",
      "get /api/call4papers/submissions/{sid}/reviews",
      "put /api/call4papers/submissions/{sid}/vote",
      "delete /api/call4papers/submissions/{sid}/vote",
      "get /api/call4papers/submissions/{sid}/negotiation",
      "post /api/call4papers/submissions/{sid}/counter-offer",
      "post /api/call4papers/submissions/{sid}/counter-offer/retract",
      "post /api/call4papers/submissions/{sid}/speaker-counter",
      "post /api/call4papers/submissions/{sid}/accept",
      "post /api/call4papers/submissions/{sid}/decline",
      "post /api/call4papers/submissions/{sid}/decide",
      "post /api/call4papers/submissions/{sid}/confirm",
      "get /api/call4papers/submissions/{sid}/agreement",
      "get /api/call4papers/{id}/submissions",
      "post /api/call4papers/{id}/submissions",
      "get /api/call4papers/{id}/my-submissions",
      "get /api/call4papers/{id}/review-progress",
      "get /api/call4papers/{id}/votable-submissions",
      "get /api/call4papers/{id}/vote-results"
    ]
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap((
      [path, operations]
    ) => Object.keys(operations).map((method) => `${method} ${path}`))
    expect(documented).toEqual(expect.arrayContaining(routes))
    expect(routes).toHaveLength(27)
  })
})
