import { afterAll, beforeAll, expect, it } from "vitest"
import { asIn, c4pSetup, draft } from "../call4papers/submissions-support"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { startReceiver, verifiedEvents } from "./receiver"

/**
 * Issue 54, item 4: a submission's webhook event adds one statement to its move, the event's insert.
 * The submission, its speakers and its versions come back from the move's own UPDATE. Statements
 * are counted through their spans, which only exist with tracing on.
 */
const roda = startRoda({ webhooksAllowPrivate: true }, { tracing: true })
const api = client(roda)
let running: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  running = await startReceiver()
})
afterAll(async () => {
  await roda.dispose()
  await running.close()
})

/**
 * Each move's statements: the caller (1); `seen`: the submission, its call, the caller's roles on the
 * call, its speakers (4); in its transaction the row lock, the row re-read (2), the UPDATE that also
 * answers the submission's speakers and versions (1), the e-mail (below), the webhook event (1); then
 * `seen` again for the answer (4). The e-mail: submitting and confirming (by the proposer) tell the
 * call's organisers, its creator and its owner: who they are, their addresses, 2 outbox rows (4);
 * deciding closes the open offer, if any (1), and tells the speakers (here the proposer and the
 * co-speaker): who they are with their addresses, their `submission_update` notification (issue 55),
 * one outbox row each (4). Before issue 54's item 4 the event re-read the submission, its speakers and
 * its versions: 3 more each.
 */
it("submitting, deciding and confirming each add 1 statement for their webhook event", async () => {
  const setup = await c4pSetup(api, "C4P consultas de ganchos")
  const { staff, proposer, coSpeaker } = setup.people
  const hook = expectOk(
    await api.post("/api/webhooks", {
      url: running.url("/submissions"),
      events: ["submission.submitted", "submission.decided", "submission.confirmed"]
    }, asIn(setup, staff)),
    201
  )
  const path = (id: string, move = "") => `/api/call4papers/submissions/${id}${move}`
  const proposal = await draft(api, setup, { coSpeakers: [coSpeaker.profileId] })
  expectOk(await api.put(path(proposal.id), { title: "Effect em produção" }, asIn(setup, proposer)))
  const move = async (name: string, person: { token: string }, body?: unknown) => {
    const counted = await statements(() => api.post(path(proposal.id, `/${name}`), body, asIn(setup, person)))
    expectOk(counted.result)
    return {
      n: counted.n,
      emits: counted.emits,
      detail: expectOk(await api.get(path(proposal.id), asIn(setup, staff)))
    }
  }

  const submit = await move("submit", proposer)
  const decide = await move("decide", staff, { decision: "accept", note: "Parabéns" })
  const confirm = await move("confirm", proposer)
  expect([submit.emits, decide.emits, confirm.emits]).toEqual([1, 1, 1])
  // On PostgreSQL the notification's `pg_notify` (waking the open streams) is in its statement.
  expect([submit.n, decide.n, confirm.n]).toEqual([17, 18, 17])

  const delivered = verifiedEvents(hook.secret, await running.waitFor("/submissions", 3))
  const communityId = setup.community.id
  expect(delivered.map((e) => [e.type, e.data])).toEqual([
    ["submission.submitted", { ...submit.detail, communityId }],
    ["submission.decided", { ...decide.detail, communityId }],
    ["submission.confirmed", { ...confirm.detail, communityId }]
  ])
  expect(submit.detail.coSpeakers).toEqual([expect.objectContaining({ profileId: coSpeaker.profileId })])
  expect(submit.detail.versions).toHaveLength(2)
  expect(decide.detail).toMatchObject({ status: "aceita", decisionNote: "Parabéns" })
  expect(confirm.detail).toMatchObject({ status: "confirmada", confirmedAt: expect.any(String) })
}, 60_000)
