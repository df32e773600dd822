import { Calls, Certificates, CertificateVerification, Submissions, viewerOfMember } from "@roda/core"
import { Effect } from "effect"
import { adds, reads, routeTool, sets, type ToolSpec } from "../tool"

export const recordTools: ReadonlyArray<ToolSpec> = [
  routeTool("certificates", "list", {
    name: "list_certificates",
    title: "List certificates",
    description: "Staff: certificates issued in the community (filter with the query fields).",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Certificates, (c) => c.list(member, urlParams))
  }),
  routeTool("certificates", "issue", {
    name: "issue_certificates",
    title: "Issue certificates",
    description:
      "Staff: issues certificates of the active template `templateId` for the space `spaceId` to 1 to 1000 `profileIds`; answers the batch (rendering and e-mails follow).",
    hints: adds,
    run: ({ payload }, member) => Effect.flatMap(Certificates, (c) => c.issue(member, payload))
  }),
  routeTool("certificates", "verify", {
    name: "verify_certificate",
    title: "Verify a certificate",
    description:
      "Checks a certificate by its public verification `code`: whether it is valid, revoked or unknown, and whom it was issued to.",
    hints: reads,
    run: ({ path }) => Effect.flatMap(CertificateVerification, (v) => v.verify(path.code))
  }),
  routeTool("call4papersCalls", "spaceCalls", {
    name: "list_calls_for_papers",
    title: "List calls for papers",
    description: "The calls for papers of the space `spaceId` you can see, with their status and dates.",
    hints: reads,
    run: ({ path, urlParams }, member) =>
      Effect.flatMap(Calls, (c) => c.spaceCalls(viewerOfMember(member), path.spaceId, urlParams))
  }),
  routeTool("call4papersSubmissions", "list", {
    name: "list_submissions",
    title: "List a call's submissions",
    description: "The owners and staff of the call `id`: its submissions (talk proposals) with status and scores.",
    hints: reads,
    run: ({ path, urlParams }, member) => Effect.flatMap(Submissions, (s) => s.list(member, path.id, urlParams))
  }),
  routeTool("call4papersSubmissions", "detail", {
    name: "get_submission",
    title: "Read a submission",
    description: "One submission (`sid`): title, abstract, speakers, track, status and, for organisers, scores.",
    hints: reads,
    run: ({ path }, member) => Effect.flatMap(Submissions, (s) => s.detail(member, path.sid))
  }),
  routeTool("call4papersSubmissions", "review", {
    name: "review_submission",
    title: "Review a submission",
    description:
      "Reviewers of the submission's track and organisers: sets your review of `sid` (`score` 1-5, optional `comment`), replacing your earlier one.",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Submissions, (s) => s.review(member, path.sid, payload))
  }),
  routeTool("call4papersSubmissions", "vote", {
    name: "vote_on_submission",
    title: "Vote on a submission",
    description: "Community voting: your `vote` (1-5) on the submission `sid`, replacing your earlier one.",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Submissions, (s) => s.vote(member, path.sid, payload.vote))
  })
]
