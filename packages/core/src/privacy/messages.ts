import { coded, text } from "../domain/Text"

/**
 * Messages of members' data rights (platform.md "Members' data rights"): exports and erasure
 * (Portuguese by default, English on request).
 */
export const PrivacyMessages = coded({
  exportRequested: text(
    "Exportação dos seus dados solicitada. Enviaremos um link por e-mail quando estiver pronta.",
    "Export of your data requested. We will e-mail you a link when it is ready."
  ),
  exportUnderWay: text(
    "Já há uma exportação dos seus dados em andamento.",
    "An export of your data is already under way."
  ),
  exportFound: text("Exportação dos seus dados.", "Export of your data."),
  exportNotFound: text("Exportação não encontrada.", "Export not found."),
  exportLimit: text(
    "Você pediu muitas exportações nas últimas 24 horas. Tente novamente mais tarde.",
    "You requested too many exports in the last 24 hours. Try again later."
  ),
  exportLinkInvalid: text("Link de download inválido.", "Invalid download link."),
  exportLinkExpired: text(
    "Este link de download expirou. Peça uma nova exportação.",
    "This download link has expired. Request a new export."
  ),
  accountNotFound: text("Conta não encontrada.", "Account not found."),
  accountErased: text(
    "Conta excluída. Seus dados pessoais foram apagados.",
    "Account deleted. Your personal data has been erased."
  ),
  /** 409: the owner of communities with other members hands them over first (named by name). */
  ownedCommunities: (names: ReadonlyArray<string>) =>
    text(
      `Transfira a propriedade destas comunidades antes de excluir a conta: ${names.join(", ")}.`,
      `Hand these communities over to another owner before deleting the account: ${names.join(", ")}.`
    ),
  ownedCommunity: (name: string, id: string) =>
    text(
      `Você é dono(a) de ${name} (${id}), que tem outros membros.`,
      `You own ${name} (${id}), which has other members.`
    )
})
