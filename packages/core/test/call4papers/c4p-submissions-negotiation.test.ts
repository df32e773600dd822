import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import {
  asIn,
  type C4PSetup,
  c4pSetup,
  negotiating,
  ONLY_PROPOSER,
  ORGANISER_REQUIRED,
  SPEAKER_OR_ORGANISER,
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
const post = (id: string, move: string, person: { token: string }, body?: unknown) =>
  api.post(path(id, `/${move}`), body, asIn(setup, person))

/** A 409 naming `status`, whose message lists the allowed moves. */
const refused = async (reply: Promise<Awaited<ReturnType<typeof post>>>, allowed?: ReadonlyArray<string>) => {
  const body = expectError(await reply, 409)
  expect(body.errors[0].param).toBe("status")
  for (const move of allowed ?? []) expect(body.message).toContain(move)
  return body
}

const kinds = async (email: string) => (await outboxFor(roda, email)).map((mail) => mail.kind)

describe("counter-offer, speaker-counter, retract, accept", () => {
  it("a full negotiation: every offer kept as a version, agreement = the accepted terms, each move e-mailed", async () => {
    const { staff, proposer, callOwner } = setup.people
    const created = await submitted(api, setup)
    const first = expectOk(
      await post(created.id, "counter-offer", staff, {
        format: "workshop",
        durationMinutes: 90,
        trackId: setup.trackB.id,
        fee: 50000,
        currency: "BRL",
        note: "Que tal um workshop?"
      }),
      200,
      "Contraproposta enviada."
    )
    expect(first).toMatchObject({ status: "em_negociacao", agreedOfferId: null })
    expect(first.offers).toHaveLength(1)
    expect(first.offers[0]).toMatchObject({
      version: 1,
      side: "organisation",
      status: "open",
      terms: {
        format: "workshop",
        durationMinutes: 90,
        trackId: setup.trackB.id,
        trackName: "Frontend",
        fee: 50000,
        currency: "BRL"
      }
    })
    expect(first.openOfferId).toBe(first.offers[0].id)
    expect(await kinds(proposer.email)).toContain("call4papers.counter-offer")
    const countered = expectOk(
      await post(created.id, "speaker-counter", proposer, { fee: 80000, note: "Preciso de 800" }),
      200,
      "Contraproposta do palestrante enviada."
    )
    expect(countered.offers.map((o: { side: string; status: string }) => [o.side, o.status])).toEqual([
      ["organisation", "superseded"],
      ["speaker", "open"]
    ])
    // terms left out are carried from the previous offer
    expect(countered.offers[1].terms).toMatchObject({
      format: "workshop",
      durationMinutes: 90,
      fee: 80000,
      currency: "BRL"
    })
    expect(await kinds(setup.owner.email)).toContain("call4papers.speaker-counter")
    expect(await kinds(callOwner.email)).toContain("call4papers.speaker-counter")
    // the organisation answers again, then the proposer accepts
    expectOk(await post(created.id, "counter-offer", callOwner, { fee: 65000 }))
    const accepted = expectOk(await post(created.id, "accept", proposer), 200, "Proposta aceita.")
    expect(accepted).toMatchObject({ status: "aceita", allowedMoves: ["confirm"] })
    expect(await kinds(setup.owner.email)).toContain("call4papers.accepted")
    const history = expectOk(
      await api.get(path(created.id, "/negotiation"), asIn(setup, proposer)),
      200,
      "Histórico da negociação."
    )
    expect(
      history.offers.map((
        o: { version: number; status: string; terms: { fee: number } }
      ) => [o.version, o.status, o.terms.fee])
    )
      .toEqual([
        [1, "superseded", 50000],
        [2, "superseded", 80000],
        [3, "accepted", 65000]
      ])
    expect(history.openOfferId).toBeNull()
    const agreement = expectOk(
      await api.get(path(created.id, "/agreement"), asIn(setup, staff)),
      200,
      "Acordo em vigor."
    )
    expect(agreement).toMatchObject({
      submissionId: created.id,
      status: "aceita",
      offerId: history.offers[2].id,
      offerVersion: 3,
      offerSide: "organisation",
      terms: { format: "workshop", durationMinutes: 90, trackId: setup.trackB.id, fee: 65000, currency: "BRL" }
    })
    // confirm: aceita -> confirmada (final)
    const confirmed = expectOk(await post(created.id, "confirm", staff), 200, "Agenda confirmada.")
    expect(confirmed).toMatchObject({ status: "confirmada", allowedMoves: [] })
    expect(await kinds(proposer.email)).toContain("call4papers.confirmed")
    expect(expectOk(await api.get(path(created.id, "/agreement"), asIn(setup, proposer))).status).toBe("confirmada")
    for (const move of ["confirm", "withdraw", "counter-offer", "accept", "decline"]) {
      const body = await refused(
        post(created.id, move, move === "withdraw" ? proposer : staff, move === "counter-offer" ? {} : undefined)
      )
      expect(body.message).toContain("nenhum")
    }
  })

  it("the organisation accepts the speaker's counter; nobody accepts their own side's offer", async () => {
    const { staff, proposer } = setup.people
    const created = await negotiating(api, setup)
    await refused(post(created.id, "accept", staff))
    expectOk(await post(created.id, "speaker-counter", proposer, { durationMinutes: 45 }))
    await refused(post(created.id, "accept", proposer))
    const accepted = expectOk(await post(created.id, "accept", staff))
    expect(accepted.status).toBe("aceita")
    expect(await kinds(proposer.email)).toContain("call4papers.accepted")
    const agreement = expectOk(await api.get(path(created.id, "/agreement"), asIn(setup, proposer)))
    expect(agreement).toMatchObject({ offerSide: "speaker", terms: { durationMinutes: 45, fee: 50000 } })
  })

  it("retract: by the open offer's author side, back to enviada", async () => {
    const { staff, callOwner, proposer } = setup.people
    const created = await negotiating(api, setup)
    expectError(
      await post(created.id, "counter-offer/retract", proposer),
      403,
      "Apenas o autor da contraproposta aberta pode retirá-la."
    )
    const back = expectOk(await post(created.id, "counter-offer/retract", callOwner), 200, "Contraproposta retirada.")
    expect(back).toMatchObject({ status: "enviada", openOfferId: null })
    expect(back.offers[0].status).toBe("retracted")
    expect(await kinds(proposer.email)).toContain("call4papers.retracted")
    await refused(post(created.id, "counter-offer/retract", staff), ["withdraw", "counter-offer", "decline"])
    // the speaker's counter is retracted by the proposer only
    expectOk(await post(created.id, "counter-offer", staff, { fee: 1000, currency: "USD" }))
    expectOk(await post(created.id, "speaker-counter", proposer, { fee: 2000 }))
    expectError(await post(created.id, "counter-offer/retract", staff), 403)
    expect(expectOk(await post(created.id, "counter-offer/retract", proposer)).status).toBe("enviada")
    expect(await statusOf(api, setup, created.id)).toBe("enviada")
    const history = expectOk(await api.get(path(created.id, "/negotiation"), asIn(setup, staff)))
    expect(history.offers.map((o: { status: string }) => o.status)).toEqual(["retracted", "superseded", "retracted"])
  })

  it("refused offers: own open offer (409), speaker-counter without an organisation offer (409), roles (403)", async () => {
    const { staff, reviewerA, proposer, coSpeaker, member } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    await refused(post(created.id, "speaker-counter", proposer, { fee: 1 }), ["counter-offer"])
    await refused(post(created.id, "accept", proposer))
    for (const person of [reviewerA, proposer, member]) {
      expectError(await post(created.id, "counter-offer", person, { fee: 1, currency: "BRL" }), 403, ORGANISER_REQUIRED)
    }
    expectOk(await post(created.id, "counter-offer", staff, { format: "talk" }))
    const twice = expectError(await post(created.id, "counter-offer", staff, { format: "keynote" }), 409)
    expect(twice.message).toBe("A organização já tem uma contraproposta aberta; retire-a antes de enviar outra.")
    expectError(await post(created.id, "speaker-counter", coSpeaker, { fee: 1, currency: "BRL" }), 403, ONLY_PROPOSER)
    expectError(await post(created.id, "speaker-counter", staff, { fee: 1, currency: "BRL" }), 403, ONLY_PROPOSER)
    expectOk(await post(created.id, "speaker-counter", proposer, { note: "ok" }))
    const needs = expectError(await post(created.id, "speaker-counter", proposer, { note: "de novo" }), 409)
    expect(needs.message).toBe("A contraproposta do palestrante responde a uma contraproposta aberta da organização.")
    expectError(await post(created.id, "accept", member), 403, SPEAKER_OR_ORGANISER)
    expectError(await post(created.id, "accept", reviewerA), 403, SPEAKER_OR_ORGANISER)
    expectError(await api.get(path(created.id, "/negotiation"), asIn(setup, reviewerA)), 403, SPEAKER_OR_ORGANISER)
    expectError(await api.get(path(created.id, "/negotiation"), asIn(setup, member)), 403)
    expect(expectOk(await api.get(path(created.id, "/negotiation"), asIn(setup, coSpeaker))).offers).toHaveLength(2)
    expectError(
      await api.get(path(created.id, "/negotiation"), asIn(other, other.people.staff)),
      404,
      SUBMISSION_NOT_FOUND
    )
  })

  it("400 for bad terms: unknown track, fractional fee, fee without currency, bad currency, unknown keys", async () => {
    const { staff } = setup.people
    const created = await submitted(api, setup)
    const offer = (body: Record<string, unknown>) => post(created.id, "counter-offer", staff, body)
    expectInvalid(await offer({ trackId: unknownId() }), "trackId")
    expectInvalid(await offer({ trackId: other.trackA.id }), "trackId")
    expectInvalid(await offer({ fee: 10.5, currency: "BRL" }), "fee")
    expectInvalid(await offer({ fee: -1, currency: "BRL" }), "fee")
    expectInvalid(await offer({ fee: 100 }), "currency")
    expectInvalid(await offer({ fee: 100, currency: "brl" }), "currency")
    expectInvalid(await offer({ durationMinutes: 0 }), "durationMinutes")
    expectInvalid(await offer({ price: 1 }), "price")
    expect(await statusOf(api, setup, created.id)).toBe("enviada")
  })
})

describe("decline, decide, confirm", () => {
  it("decline: organisers from enviada and em_negociacao -> recusada; the proposer is told", async () => {
    const { staff, callOwner, proposer, reviewerA } = setup.people
    const plain = await submitted(api, setup)
    expectError(await post(plain.id, "decline", proposer), 403, ORGANISER_REQUIRED)
    expectError(await post(plain.id, "decline", reviewerA), 403, ORGANISER_REQUIRED)
    expect(expectOk(await post(plain.id, "decline", staff), 200, "Proposta recusada.")).toMatchObject({
      status: "recusada",
      allowedMoves: []
    })
    expect(await kinds(proposer.email)).toContain("call4papers.declined")
    const talking = await negotiating(api, setup)
    expect(expectOk(await post(talking.id, "decline", callOwner)).status).toBe("recusada")
    const history = expectOk(await api.get(path(talking.id, "/negotiation"), asIn(setup, proposer)))
    expect(history.offers[0].status).toBe("declined")
    await refused(post(talking.id, "decline", staff))
    await refused(api.get(path(talking.id, "/agreement"), asIn(setup, proposer)))
  })

  it("decide: accept or refuse directly; without an offer the proposal's own terms are the agreement", async () => {
    const { staff, proposer } = setup.people
    const direct = await submitted(api, setup, { trackId: setup.trackA.id })
    await refused(api.get(path(direct.id, "/agreement"), asIn(setup, proposer)))
    expectInvalid(await post(direct.id, "decide", staff, { decision: "maybe" }), "decision")
    expectInvalid(await post(direct.id, "decide", staff, {}), "decision")
    expectError(await post(direct.id, "decide", proposer, { decision: "accept" }), 403, ORGANISER_REQUIRED)
    const accepted = expectOk(
      await post(direct.id, "decide", staff, { decision: "accept", note: "Parabéns" }),
      200,
      "Decisão registrada."
    )
    expect(accepted).toMatchObject({ status: "aceita", decisionNote: "Parabéns" })
    const agreement = expectOk(await api.get(path(direct.id, "/agreement"), asIn(setup, proposer)))
    expect(agreement).toMatchObject({
      offerId: null,
      terms: { trackId: setup.trackA.id, trackName: "Backend", format: null, fee: null }
    })
    await refused(post(direct.id, "decide", staff, { decision: "refuse" }), ["confirm"])
    const refusedOne = await submitted(api, setup)
    expect(expectOk(await post(refusedOne.id, "decide", staff, { decision: "refuse" })).status).toBe("recusada")
    const withOffer = await negotiating(api, setup, { fee: 12345 })
    expectOk(await post(withOffer.id, "decide", staff, { decision: "accept" }))
    expect(expectOk(await api.get(path(withOffer.id, "/agreement"), asIn(setup, staff))).terms.fee).toBe(12345)
  })

  it("confirm: aceita -> confirmada by an organiser or the proposer; refused elsewhere", async () => {
    const { staff, proposer, member, coSpeaker } = setup.people
    const created = await submitted(api, setup, { coSpeakers: [coSpeaker.profileId] })
    await refused(post(created.id, "confirm", staff), ["decide:accept"])
    expectOk(await post(created.id, "decide", staff, { decision: "accept" }))
    expectError(await post(created.id, "confirm", member), 403, SPEAKER_OR_ORGANISER)
    expectError(await post(created.id, "confirm", coSpeaker), 403, SPEAKER_OR_ORGANISER)
    expect(expectOk(await post(created.id, "confirm", proposer)).status).toBe("confirmada")
    expect(await kinds(setup.owner.email)).toContain("call4papers.confirmed")
    expectError(await api.get(path(created.id, "/agreement"), asIn(setup, member)), 403)
  })

  it("two organisers deciding one submission at once settle it once", async () => {
    const { staff, callOwner } = setup.people
    for (let round = 0; round < 3; round++) {
      const created = await submitted(api, setup)
      const replies = await Promise.all([
        post(created.id, "decide", staff, { decision: "accept" }),
        post(created.id, "decide", callOwner, { decision: "refuse" })
      ])
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
      const winner = replies.find((reply) => reply.status === 200)!
      expect(await statusOf(api, setup, created.id)).toBe(winner.body.data.status)
    }
  })

  it("from em_negociacao: decide refuse declines the open offer; confirm is refused; a JSON body on decline is ignored", async () => {
    const { staff, proposer } = setup.people
    const created = await negotiating(api, setup)
    await refused(post(created.id, "confirm", staff), ["speaker-counter", "decide:refuse"])
    await refused(post(created.id, "submit", proposer))
    const done = expectOk(await post(created.id, "decide", staff, { decision: "refuse", note: "Sem espaço" }))
    expect(done).toMatchObject({ status: "recusada", decisionNote: "Sem espaço", allowedMoves: [] })
    const history = expectOk(await api.get(path(created.id, "/negotiation"), asIn(setup, proposer)))
    expect(history.offers[0].status).toBe("declined")
    await refused(post(created.id, "counter-offer", staff, {}))
    await refused(post(created.id, "confirm", proposer))
    const plain = await submitted(api, setup)
    expect(expectOk(await post(plain.id, "decline", staff, {})).status).toBe("recusada")
  })

  it("withdrawing during a negotiation closes the open offer", async () => {
    const { proposer, staff } = setup.people
    const created = await negotiating(api, setup)
    expect(expectOk(await post(created.id, "withdraw", proposer)).status).toBe("retirada")
    const history = expectOk(await api.get(path(created.id, "/negotiation"), asIn(setup, staff)))
    expect(history.offers.map((o: { status: string }) => o.status)).toEqual(["closed"])
    expect(await kinds(setup.owner.email)).toContain("call4papers.withdrawn")
  })
})
