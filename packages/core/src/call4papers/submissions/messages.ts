import { coded, type Text, text } from "../../domain/Text"

/** Messages of submissions, reviews, votes and negotiation (pt by default, en on request). */
export const SubmissionMessages = coded({
  // errors
  notFound: text("Proposta não encontrada.", "Submission not found."),
  callNotOpen: (status: string): Text =>
    text(
      `A chamada não está aberta para propostas (status: ${status}).`,
      `The call is not open for submissions (status: ${status}).`
    ),
  trackUnknown: text(
    "Trilha não encontrada nesta chamada.",
    "Track not found in this call."
  ),
  coSpeakerUnknown: text(
    "Coautor não encontrado nesta comunidade.",
    "Co-speaker not found in this community."
  ),
  coSpeakerSelf: text(
    "O proponente não pode ser coautor da própria proposta.",
    "The proposer cannot be a co-speaker of their own submission."
  ),
  moveRefused: (from: string, move: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `A proposta em ${from} não permite ${move}. Movimentos permitidos: ${
        allowed.length ? allowed.join(", ") : "nenhum"
      }`,
      `A submission in ${from} does not allow ${move}. Allowed moves: ${allowed.length ? allowed.join(", ") : "none"}`
    ),
  speakerOwnConsent: text(
    "Apenas o próprio palestrante pode aceitar ou contrapor em seu nome; agir como o perfil dele (X-ProfileId) não basta.",
    "Only the speaker themselves may accept or counter in their name; acting as their profile (X-ProfileId) is not enough."
  ),
  onlyProposer: text(
    "Apenas quem enviou a proposta pode fazer isso.",
    "Only the submission's proposer may do this."
  ),
  onlySpeakerOrOrganiser: text(
    "Apenas a organização da chamada ou quem enviou a proposta pode fazer isso.",
    "Only the call's organisers or the submission's proposer may do this."
  ),
  cannotSee: text(
    "Apenas a organização, os avaliadores da trilha e os palestrantes veem esta proposta.",
    "Only the organisers, the track's reviewers and the speakers see this submission."
  ),
  notReviewer: text(
    "Apenas avaliadores da trilha da proposta ou a organização podem avaliá-la.",
    "Only reviewers of the submission's track or the organisers may review it."
  ),
  ownSubmissionReview: text(
    "Você não pode avaliar a sua própria proposta.",
    "You cannot review your own submission."
  ),
  coSpeakerAfterJudging: text(
    "Você avaliou ou votou nesta proposta; não pode ser coautor(a) dela.",
    "You reviewed or voted on this submission; you cannot co-speak it."
  ),
  ownSubmissionDecision: text(
    "Você não pode decidir nem negociar pela organização sobre a sua própria proposta; outro organizador da chamada o faz.",
    "You cannot decide or negotiate for the organisation on your own submission; another organiser of the call does."
  ),
  voteOwnConsent: text(
    "O voto é pessoal: vote com o próprio acesso; agir como o perfil de outra pessoa (X-ProfileId) não basta.",
    "A vote is personal: vote with your own access; acting as another person's profile (X-ProfileId) is not enough."
  ),
  coSpeakerClosed: (status: string): Text =>
    text(
      `A proposta foi retirada ou recusada (status: ${status}); o convite de coautoria só pode ser recusado.`,
      `The submission was withdrawn or refused (status: ${status}); the co-speaker invitation can only be declined.`
    ),
  ownSubmissionVote: text(
    "Você não pode votar na sua própria proposta.",
    "You cannot vote on your own submission."
  ),
  notReviewable: (status: string): Text =>
    text(
      `Só propostas enviadas ou em negociação podem ser avaliadas (status: ${status}).`,
      `Only submitted or negotiating submissions can be reviewed (status: ${status}).`
    ),
  notOnBallot: (status: string): Text =>
    text(
      `Só propostas enviadas ou em negociação recebem votos (status: ${status}).`,
      `Only submitted or negotiating submissions take votes (status: ${status}).`
    ),
  votingOff: text(
    "A votação da comunidade não está aberta nesta chamada.",
    "Community voting is not open on this call."
  ),
  offerOpenRetractFirst: text(
    "A organização já tem uma contraproposta aberta; retire-a antes de enviar outra.",
    "The organisation already has an open counter-offer; retract it before sending another."
  ),
  noOpenOffer: text("Não há contraproposta aberta.", "There is no open offer."),
  speakerCounterNeedsOffer: text(
    "A contraproposta do palestrante responde a uma contraproposta aberta da organização.",
    "A speaker counter answers an open counter-offer of the organisation."
  ),
  retractOnlyAuthor: text(
    "Apenas o autor da contraproposta aberta pode retirá-la.",
    "Only the author of the open offer may retract it."
  ),
  acceptOtherSide: text(
    "Só se aceita a contraproposta aberta do outro lado.",
    "Only the other side's open offer can be accepted."
  ),
  noAgreement: (status: string): Text =>
    text(
      `Ainda não há acordo: a proposta está em ${status}.`,
      `There is no agreement yet: the submission is ${status}.`
    ),
  currencyRequired: text(
    "Informe a moeda (currency) junto com o cachê (fee).",
    "Send the currency together with the fee."
  ),
  speakersRefused: text(
    "Apenas owner, admin, moderator ou donos de chamadas veem o banco de palestrantes.",
    "Only an owner, admin, moderator or a call owner sees the speaker bank."
  ),
  notInBank: text(
    "Esta pessoa não está no banco de palestrantes da comunidade.",
    "This person is not in the community's speaker bank."
  ),
  alreadyInvited: text(
    "Esta pessoa já foi convidada para esta chamada.",
    "This person was already invited to this call."
  ),
  callNotPublished: (status: string): Text =>
    text(
      `Só se convida para uma chamada publicada (status: ${status}).`,
      `Speakers are invited only to a published call (status: ${status}).`
    ),
  coSpeakerMoveRefused: (from: string, move: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `O convite de coautoria em ${from} não permite ${move}. Movimentos permitidos: ${
        allowed.length ? allowed.join(", ") : "nenhum"
      }`,
      `A co-speaker invitation in ${from} does not allow ${move}. Allowed moves: ${
        allowed.length ? allowed.join(", ") : "none"
      }`
    ),
  coSpeakerInvitationNotFound: text(
    "Convite de coautoria não encontrado.",
    "Co-speaker invitation not found."
  ),
  coSpeakerOwnConsent: text(
    "Este convite é de outra pessoa: apenas a pessoa convidada responde, com o próprio acesso; agir como o perfil dela (X-ProfileId) não basta.",
    "This invitation belongs to someone else: only the invited person answers, with their own access; acting as their profile (X-ProfileId) is not enough."
  ),
  // successes
  submissions: text("Propostas encontradas.", "Submissions found."),
  submission: text("Proposta encontrada.", "Submission found."),
  created: text("Proposta criada como rascunho.", "Submission created as a draft."),
  updated: text("Proposta atualizada.", "Submission updated."),
  submitted: text("Proposta enviada.", "Submission submitted."),
  withdrawn: text("Proposta retirada.", "Submission withdrawn."),
  reviewSaved: text("Avaliação registrada.", "Review saved."),
  reviews: text("Avaliações consolidadas.", "Consolidated reviews."),
  reviewQueue: text("Fila de avaliação.", "Review queue."),
  reviewProgress: text("Progresso das avaliações.", "Review progress."),
  ballot: text("Propostas em votação.", "Submissions open to vote."),
  voteSaved: text("Voto registrado.", "Vote saved."),
  voteRemoved: text("Voto removido.", "Vote removed."),
  voteResults: text("Resultado da votação.", "Vote results."),
  negotiation: text("Histórico da negociação.", "Negotiation history."),
  counterOffered: text("Contraproposta enviada.", "Counter-offer sent."),
  retracted: text("Contraproposta retirada.", "Offer retracted."),
  speakerCountered: text("Contraproposta do palestrante enviada.", "Speaker counter sent."),
  accepted: text("Proposta aceita.", "Submission accepted."),
  declined: text("Proposta recusada.", "Submission declined."),
  decided: text("Decisão registrada.", "Decision recorded."),
  confirmed: text("Agenda confirmada.", "Agenda confirmed."),
  agreement: text("Acordo em vigor.", "Agreement in force."),
  speakers: text("Banco de palestrantes.", "Speaker bank."),
  speakerInvited: text("Palestrante convidado.", "Speaker invited."),
  coSpeakerAccepted: text("Convite de coautoria aceito.", "Co-speaker invitation accepted."),
  coSpeakerDeclined: text("Convite de coautoria recusado.", "Co-speaker invitation declined.")
})
