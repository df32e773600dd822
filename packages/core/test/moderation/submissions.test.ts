import { afterAll, beforeAll, expect, it } from "vitest"
import { asIn, type C4PSetup, c4pSetup, draft, submitted } from "../call4papers/submissions-support"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { NOT_SUPPORTED, OWN_CONTENT, SUBJECT_NOT_FOUND } from "./setup"

/** Issue 56, item 1: reports on call-for-papers submissions follow who may read them. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let c: C4PSetup
beforeAll(async () => {
  c = await c4pSetup(api, "Denúncias C4P")
})

const report = (user: { token: string }, subjectId: string) =>
  api.post("/api/reports", { subjectType: "submission", subjectId, reason: "misinformation" }, asIn(c, user))

it("takes reports of those who read the submission; its speakers' own is 400, others' 404", async () => {
  const submission = await submitted(api, c, { coSpeakers: [c.people.coSpeaker.profileId] })
  const byReviewer = expectOk(await report(c.people.reviewerA, submission.id), 201)
  expect(byReviewer).toMatchObject({ subjectType: "submission", subjectId: submission.id })
  expectOk(await report(c.people.moderator, submission.id), 201)
  for (const speaker of [c.people.proposer, c.people.coSpeaker]) {
    expectError(await report(speaker, submission.id), 400, OWN_CONTENT)
  }
  // a plain member and the other track's reviewer do not read it
  for (const outsider of [c.people.member, c.people.reviewerB]) {
    expectError(await report(outsider, submission.id), 404, SUBJECT_NOT_FOUND)
  }
  // a draft is its speakers' alone
  const unsent = await draft(api, c, { title: "Rascunho" })
  expectError(await report(c.people.moderator, unsent.id), 404, SUBJECT_NOT_FOUND)
  const cases = expectOk(await api.get("/api/moderation/cases", asIn(c, c.people.moderator))) as Array<any>
  expect(cases.find((x) => x.subject.id === submission.id)).toMatchObject({
    subject: { type: "submission", excerpt: "Effect na prática", author: { id: c.people.proposer.profileId } },
    reportCount: 2
  })
})

it("resolves a submission's case by dismiss only: hide and remove answer 400, the submission is untouched", async () => {
  const submission = await submitted(api, c, { title: "Proposta denunciada" })
  const caseId = expectOk(await report(c.people.reviewerA, submission.id), 201).caseId
  const resolve = (action: string) =>
    api.post(`/api/moderation/cases/${caseId}/resolve`, { action }, asIn(c, c.people.moderator))
  for (const action of ["hide", "remove"]) {
    const body = expectError(await resolve(action), 400, NOT_SUPPORTED(action, "submission"))
    expect(body.code).toBe("action_not_supported")
    expect(body.errors[0]).toMatchObject({ param: "action" })
  }
  const read = expectOk(await api.get(`/api/call4papers/submissions/${submission.id}`, asIn(c, c.people.proposer)))
  expect(read).toMatchObject({ id: submission.id, status: "enviada" })
  expect(expectOk(await resolve("dismiss"))).toMatchObject({ status: "resolved", resolution: { action: "dismiss" } })
})
