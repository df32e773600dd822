import { SubmissionDetail } from "../../call4papers/submissions/Api"
import { type Payloads, withCommunity } from "./payload"

export const submissionPayloads: Payloads = {
  "submission.submitted": {
    summary: "A proposal was submitted to a call for papers: `rascunho -> enviada` (the submission as its " +
      "detail route answers the call's organisers)",
    data: withCommunity(SubmissionDetail.fields)
  },
  "submission.decided": {
    summary: "The organisation's decision, known to the speaker from then on: `aceita` (decided, or an offer " +
      "of either side accepted) or `recusada` (declined or decided) (the submission as its detail route " +
      "answers the call's organisers, with `status`, `decidedAt` and `decisionNote`)",
    data: withCommunity(SubmissionDetail.fields)
  },
  "submission.confirmed": {
    summary: "An accepted submission was confirmed on the agenda: `aceita -> confirmada` (the submission as " +
      "its detail route answers the call's organisers)",
    data: withCommunity(SubmissionDetail.fields)
  }
}
