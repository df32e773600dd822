import { Effect } from "effect"
import { CoSpeaking } from "./CoSpeaking"
import { Deciding } from "./Deciding"
import { Negotiating } from "./Negotiating"
import { Proposing } from "./Proposing"
import { Reviewing } from "./Reviewing"
import { SpeakerBank } from "./SpeakerBank"
import { Voting } from "./Voting"

/**
 * Submissions to calls for papers, as one contract (design/states.md "Call for papers"): proposing
 * (`Proposing`), co-speakers' consent (`CoSpeaking`), the speaker bank (`SpeakerBank`), reviews
 * (`Reviewing`), the open community vote (`Voting`), the negotiation of terms (`Negotiating`) and the
 * organisation's decision (`Deciding`). Organisers (community staff, or accepted owners of the call)
 * manage; reviewers of a track review its submissions; the proposer edits a draft, submits, withdraws
 * and negotiates; any member votes when the call has community voting. Each use case lives in its own
 * service; this one only puts them together for the HTTP handlers and embedders.
 */
export class Submissions extends Effect.Service<Submissions>()("@roda/core/call4papers/Submissions", {
  effect: Effect.gen(function*() {
    const { create, detail, list, mine, submit, update, withdraw } = yield* Proposing
    const { acceptCoSpeaking, declineCoSpeaking } = yield* CoSpeaking
    const { inviteSpeaker, speakers } = yield* SpeakerBank
    const { review, reviewProgress, reviewQueue, reviews } = yield* Reviewing
    const { ballot, unvote, vote, voteResults } = yield* Voting
    const { accept, counterOffer, negotiation, retract, speakerCounter } = yield* Negotiating
    const { agreement, decide, decline, confirm } = yield* Deciding
    return {
      create,
      detail,
      update,
      submit,
      withdraw,
      list,
      mine,
      speakers,
      inviteSpeaker,
      acceptCoSpeaking,
      declineCoSpeaking,
      review,
      reviews,
      reviewQueue,
      reviewProgress,
      ballot,
      vote,
      unvote,
      voteResults,
      negotiation,
      counterOffer,
      speakerCounter,
      retract,
      accept,
      decline,
      decide,
      confirm,
      agreement
    }
  }),
  dependencies: [
    Proposing.Default,
    CoSpeaking.Default,
    SpeakerBank.Default,
    Reviewing.Default,
    Voting.Default,
    Negotiating.Default,
    Deciding.Default
  ]
}) {}
