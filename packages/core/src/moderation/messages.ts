import { coded, type Text, text } from "../domain/Text"

const moves = (allowed: ReadonlyArray<string>, none: string) => allowed.length > 0 ? allowed.join(", ") : none

/** Messages of moderation: reports, cases and the log (Portuguese by default, English on request). */
export const moderationMessages = coded({
  reportCreated: text("Denúncia registrada. Obrigado por avisar.", "Report received. Thank you for telling us."),
  reportExists: text(
    "Você já denunciou isto; a denúncia segue registrada.",
    "You already reported this; the report stands."
  ),
  ownContent: text("Você não pode denunciar o seu próprio conteúdo.", "You cannot report your own content."),
  subjectNotFound: text("Conteúdo denunciado não encontrado.", "Reported subject not found."),
  cases: text("Casos de moderação.", "Moderation cases."),
  caseNotFound: text("Caso de moderação não encontrado.", "Moderation case not found."),
  caseResolved: text("Caso resolvido.", "Case resolved."),
  caseMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o caso de ${from} para ${to}. Movimentos permitidos: ${moves(allowed, "nenhum")}.`,
      `Cannot move the case from ${from} to ${to}. Allowed moves: ${moves(allowed, "none")}.`
    ),
  actionNotSupported: (action: string, subjectType: string): Text =>
    text(
      `A ação ${action} não se aplica a este tipo de denúncia (${subjectType}): use dismiss.`,
      `The action ${action} does not apply to this subject type (${subjectType}): use dismiss.`
    ),
  log: text("Registro de moderação.", "Moderation log."),
  memberNotFound: text("Membro não encontrado.", "Member not found."),
  selfAction: text("Você não pode moderar a si mesmo.", "You cannot moderate yourself."),
  ownerUntouchable: text(
    "Ninguém pode suspender ou banir o dono da comunidade.",
    "Nobody can suspend or ban the community owner."
  ),
  onlyOwnerOnAdmin: text(
    "Somente o dono da comunidade pode suspender ou banir um admin.",
    "Only the community owner can suspend or ban an admin."
  ),
  memberSuspended: text("Membro suspenso.", "Member suspended."),
  memberUnsuspended: text("Suspensão encerrada.", "Suspension lifted."),
  memberBanned: text("Membro banido.", "Member banned."),
  memberUnbanned: text(
    "Banimento desfeito; a pessoa pode voltar a ser convidada.",
    "Ban lifted; the person may be invited again."
  ),
  alreadyBanned: text("Este membro já está banido.", "This member is already banned."),
  notBanned: text("Este perfil não está banido.", "This profile is not banned."),
  pending: text("Conteúdo aguardando aprovação.", "Content awaiting approval."),
  pendingNotFound: text(
    "Conteúdo aguardando aprovação não encontrado.",
    "No content awaiting approval with this id."
  ),
  pendingApproved: text("Conteúdo aprovado.", "Content approved."),
  pendingRejected: text("Conteúdo rejeitado.", "Content rejected.")
})
