import { coded, same, type Text, text } from "../../domain/Text"

const list = (values: ReadonlyArray<string>, none: string) => (values.length > 0 ? values.join(", ") : none)

/** Messages of calls for papers: calls, tracks, event dates, owners and track reviewers. */
export const CallMessages = coded({
  invalidCallId: same("Valid call ID is required"),
  invalidTrackId: same("Valid track ID is required"),
  callNotFound: text("Chamada de trabalhos não encontrada.", "Call for papers not found."),
  spaceNotFound: text(
    "Espaço não encontrado ou não pertence a esta comunidade.",
    "Space not found or not in this community."
  ),
  spaceIdRequired: text("ID do espaço é obrigatório.", "Space ID is required."),
  notACallSpace: text(
    "Este espaço não é um espaço de chamadas de trabalhos (module call4papers).",
    "This space is not a calls-for-papers space (module call4papers)."
  ),
  trackNotFound: text("Trilha não encontrada.", "Track not found."),
  eventDateNotFound: text("Data do evento não encontrada.", "Event date not found."),
  ownerNotFound: text("Convite de organização não encontrado.", "Owner invitation not found."),
  reviewerNotFound: text("Convite de avaliação não encontrado.", "Reviewer invitation not found."),
  profileNotFound: text(
    "Perfil não encontrado nesta comunidade.",
    "Profile not found in this community."
  ),
  organiserRequired: text(
    "Apenas owner, admin, moderator ou um dono (owner) da chamada podem fazer isso.",
    "Only an owner, admin or moderator of the community or an owner of the call may do this."
  ),
  openCallRequired: text(
    "Neste espaço apenas owner, admin ou moderator abrem chamadas de trabalhos.",
    "In this space only an owner, admin or moderator may open calls for papers."
  ),
  invitationNotYours: text(
    "Este convite é de outra pessoa.",
    "This invitation belongs to someone else."
  ),
  slugTaken: text(
    "Já existe uma chamada com este slug neste espaço.",
    "A call with this slug already exists in this space."
  ),
  trackNameTaken: text(
    "Já existe uma trilha com este nome nesta chamada.",
    "A track with this name already exists in this call."
  ),
  eventDateTaken: text(
    "Esta data já está na lista de dias do evento.",
    "This date is already one of the event's days."
  ),
  callDatesOrder: text(
    "A abertura (opensAt) deve ser anterior ao encerramento (closesAt).",
    "opensAt must be before closesAt."
  ),
  eventTimesOrder: text(
    "O início (startTime) deve ser anterior ao fim (endTime).",
    "startTime must be before endTime."
  ),
  alreadyOwner: text(
    "Esta pessoa já é dona (owner) desta chamada ou já foi convidada.",
    "This person is already an owner of this call or already invited."
  ),
  alreadyReviewer: text(
    "Esta pessoa já avalia esta trilha ou já foi convidada.",
    "This person already reviews this track or is already invited."
  ),
  callStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar a chamada de ${from} para ${to}. Movimentos permitidos: ${list(allowed, "nenhum")}.`,
      `The call cannot move from ${from} to ${to}. Allowed moves: ${list(allowed, "none")}.`
    ),
  callMoveRefused: (move: string, from: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível fazer ${move} numa chamada em ${from}. Movimentos permitidos: ${list(allowed, "nenhum")}.`,
      `A call in ${from} cannot ${move}. Allowed moves: ${list(allowed, "none")}.`
    ),
  invitationMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o convite de ${from} para ${to}. Movimentos permitidos: ${list(allowed, "nenhum")}.`,
      `The invitation cannot move from ${from} to ${to}. Allowed moves: ${list(allowed, "none")}.`
    ),

  // success
  spaceConfig: text("Configuração do espaço.", "Space configuration."),
  spaceConfigUpdated: text("Configuração do espaço atualizada.", "Space configuration updated."),
  calls: text("Chamadas encontradas.", "Calls found."),
  call: text("Chamada encontrada.", "Call found."),
  callCreated: text("Chamada de trabalhos aberta com sucesso.", "Call for papers opened."),
  callUpdated: text("Chamada atualizada com sucesso.", "Call updated."),
  callDeleted: text("Chamada removida com sucesso.", "Call removed."),
  callStatusChanged: text("Situação da chamada alterada.", "Call status changed."),
  callPublished: text("Chamada publicada.", "Call published."),
  callUnpublished: text("Chamada despublicada.", "Call unpublished."),
  callClosed: text("Chamada encerrada.", "Call closed."),
  callReopened: text("Chamada reaberta.", "Call reopened."),
  tracks: text("Trilhas encontradas.", "Tracks found."),
  trackCreated: text("Trilha criada com sucesso.", "Track created."),
  trackUpdated: text("Trilha atualizada com sucesso.", "Track updated."),
  trackDeleted: text("Trilha removida com sucesso.", "Track removed."),
  eventDates: text("Datas do evento encontradas.", "Event dates found."),
  eventDateCreated: text("Data adicionada com sucesso.", "Event date added."),
  eventDateUpdated: text("Data atualizada com sucesso.", "Event date updated."),
  eventDateDeleted: text("Data removida com sucesso.", "Event date removed."),
  owners: text("Donos da chamada encontrados.", "Call owners found."),
  ownerInvited: text("Convite de organização enviado.", "Owner invitation sent."),
  ownerAccepted: text("Convite de organização aceito.", "Owner invitation accepted."),
  ownerDeclined: text("Convite de organização recusado.", "Owner invitation declined."),
  ownerRemoved: text("Dono removido da chamada.", "Owner removed from the call."),
  reviewers: text("Avaliadores encontrados.", "Reviewers found."),
  reviewerInvited: text("Convite de avaliação enviado.", "Reviewer invitation sent."),
  reviewerAccepted: text("Convite de avaliação aceito.", "Reviewer invitation accepted."),
  reviewerDeclined: text("Convite de avaliação recusado.", "Reviewer invitation declined."),
  reviewerRemoved: text("Avaliador removido da trilha.", "Reviewer removed from the track."),
  invitations: text("Convites pendentes.", "Pending invitations.")
})
