import { expect, it } from "vitest"
import { asIn, c4pSetup, draft, negotiating, submitted } from "../call4papers/submissions-support"
import { expectError, expectOk } from "../support/envelope"
import { expectDeclared, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: a submission's submission, decision and confirmation reach the community's webhooks. */
const { api, receiver: running } = webhookSuite()

it(
  "sends submission.submitted, .decided and .confirmed with the submission as organisers see it; no-ops send nothing",
  async () => {
    const setup = await c4pSetup(api, "C4P com ganchos")
    const { staff, proposer, coSpeaker } = setup.people
    const communityId = setup.community.id
    const hook = expectOk(
      await api.post("/api/webhooks", {
        url: running().url("/submissions"),
        events: ["submission.submitted", "submission.decided", "submission.confirmed"]
      }, asIn(setup, staff)),
      201
    )
    const path = (id: string, move = "") => `/api/call4papers/submissions/${id}${move}`
    const post = (id: string, move: string, person: { token: string }, body?: unknown) =>
      api.post(path(id, `/${move}`), body, asIn(setup, person))
    /** The submission as its detail route answers the call's staff, right after a move. */
    const asStaff = async (id: string) => expectOk(await api.get(path(id), asIn(setup, staff)))

    // drafts and their edits send nothing; submitting does, once
    const proposal = await draft(api, setup, { coSpeakers: [coSpeaker.profileId] })
    expectOk(await api.put(path(proposal.id), { title: "Effect em produção" }, asIn(setup, proposer)))
    expectOk(await post(proposal.id, "submit", proposer))
    const onSubmit = await asStaff(proposal.id)
    expectError(await post(proposal.id, "submit", proposer), 409)

    // decided directly (accepted, with a note), then confirmed by the speaker, once
    expectOk(await post(proposal.id, "decide", staff, { decision: "accept", note: "Parabéns" }))
    const onAccept = await asStaff(proposal.id)
    expectError(await post(proposal.id, "decide", staff, { decision: "refuse" }), 409)
    expectOk(await post(proposal.id, "confirm", proposer))
    const onConfirm = await asStaff(proposal.id)
    expectError(await post(proposal.id, "confirm", proposer), 409)

    // declined by the organisation (no body)
    const refused = await submitted(api, setup, { title: "Proposta recusada" })
    expectOk(await post(refused.id, "decline", staff))
    const onDecline = await asStaff(refused.id)
    expectError(await post(refused.id, "decline", staff), 409)

    // the organisation's offer accepted by the speaker
    const negotiated = await negotiating(api, setup)
    expectOk(await post(negotiated.id, "accept", proposer))
    const onOffer = await asStaff(negotiated.id)

    // a withdrawal is not a decision
    const withdrawn = await submitted(api, setup, { title: "Proposta retirada" })
    expectOk(await post(withdrawn.id, "withdraw", proposer))

    const requests = await running().waitFor("/submissions", 8)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(running().received.filter((r) => r.path === "/submissions")).toHaveLength(8)
    const delivered = verifiedEvents(hook.secret, requests)
    const of = (type: string, id: string) =>
      delivered.filter((e) => e.type === `submission.${type}` && e.data.id === id).map((e) => e.data)

    expect(of("submitted", proposal.id)).toEqual([{ ...onSubmit, communityId }])
    expect(onSubmit).toMatchObject({ status: "enviada", title: "Effect em produção", version: 2 })
    expect(onSubmit.coSpeakers).toEqual([expect.objectContaining({ profileId: coSpeaker.profileId })])
    expect(onSubmit.versions).toHaveLength(2)
    expect(of("decided", proposal.id)).toEqual([{ ...onAccept, communityId }])
    expect(onAccept).toMatchObject({ status: "aceita", decisionNote: "Parabéns", decidedAt: expect.any(String) })
    expect(of("confirmed", proposal.id)).toEqual([{ ...onConfirm, communityId }])
    expect(onConfirm).toMatchObject({ status: "confirmada", confirmedAt: expect.any(String) })

    expect(of("submitted", refused.id)).toHaveLength(1)
    expect(of("decided", refused.id)).toEqual([{ ...onDecline, communityId }])
    expect(onDecline).toMatchObject({ status: "recusada", decidedAt: expect.any(String) })

    expect(of("submitted", negotiated.id)).toHaveLength(1)
    expect(of("decided", negotiated.id)).toEqual([{ ...onOffer, communityId }])
    expect(onOffer).toMatchObject({ status: "aceita" })

    expect(of("submitted", withdrawn.id)).toHaveLength(1)
    expect(delivered.filter((e) => e.data.id === withdrawn.id)).toHaveLength(1)

    await expectDeclared(api, delivered)
  },
  120_000
)
