import { coded, type Text, text } from "../../domain/Text"

const moves = (allowed: ReadonlyArray<string>, none: string) => allowed.length > 0 ? allowed.join(", ") : none

/** Messages of business information, payout settings and their review (Portuguese by default). */
export const accountsMessages = coded({
  businessInformation: text("Informações do negócio.", "Business information."),
  businessInformationSaved: text("Informações do negócio salvas.", "Business information saved."),
  businessInformationSubmitted: text(
    "Informações do negócio enviadas para análise (até 7 dias úteis).",
    "Business information submitted for review (up to 7 business days)."
  ),
  businessInformationApproved: text("Informações do negócio aprovadas.", "Business information approved."),
  businessInformationRejected: text("Informações do negócio recusadas.", "Business information rejected."),
  businessInformationNotFound: text(
    "A comunidade ainda não tem informações do negócio.",
    "The community has no business information yet."
  ),
  payoutSettings: text("Configurações de repasse.", "Payout settings."),
  payoutSettingsSaved: text("Configurações de repasse salvas.", "Payout settings saved."),
  payoutSettingsSubmitted: text(
    "Configurações de repasse enviadas para análise (até 7 dias úteis).",
    "Payout settings submitted for review (up to 7 business days)."
  ),
  payoutSettingsApproved: text("Configurações de repasse aprovadas.", "Payout settings approved."),
  payoutSettingsRejected: text("Configurações de repasse recusadas.", "Payout settings rejected."),
  payoutSettingsNotFound: text(
    "A comunidade ainda não tem configurações de repasse.",
    "The community has no payout settings yet."
  ),
  payoutStatus: text("Situação das configurações de repasse.", "Payout settings status."),
  prerequisites: text("Pré-requisitos para vender e sacar.", "Prerequisites for selling and withdrawing."),
  communityNotFound: text("Comunidade não encontrada.", "Community not found."),
  reviewMove: (awaitingSubmit: boolean, from: string, action: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível ${action} quando o status é ${from}${awaitingSubmit ? " (alterado, envie de novo)" : ""}. ` +
        `Ações permitidas: ${moves(allowed, "nenhuma")}.`,
      `Cannot ${action} while the status is ${from}${awaitingSubmit ? " (edited, needs submit again)" : ""}. ` +
        `Allowed actions: ${moves(allowed, "none")}.`
    ),
  taxIdInvalid: text(
    "CPF ou CNPJ inválido: confira os dígitos verificadores.",
    "Invalid CPF or CNPJ: check the check digits."
  ),
  pixKeyInvalid: text(
    "Chave PIX inválida: use CPF, CNPJ, e-mail, telefone (+55…) ou chave aleatória.",
    "Invalid PIX key: use a CPF, CNPJ, e-mail, phone (+55…) or random key."
  ),
  pixKeyRequired: text("Informe a chave PIX (pixKey).", "pixKey is required for PIX."),
  bankAccountRequired: text("Informe a conta bancária (bankAccount).", "bankAccount is required for BANK_ACCOUNT."),
  // prerequisites
  businessMissing: text("Preencha as informações do negócio.", "Fill in the business information."),
  businessDraft: text("Envie as informações do negócio para análise.", "Submit the business information for review."),
  businessPending: text("As informações do negócio estão em análise.", "The business information is under review."),
  businessRejected: (reason: string): Text =>
    text(
      `As informações do negócio foram recusadas: ${reason}`,
      `The business information was rejected: ${reason}`
    ),
  payoutMissing: text("Cadastre as configurações de repasse.", "Set up the payout settings."),
  payoutDraft: text("Envie as configurações de repasse para análise.", "Submit the payout settings for review."),
  payoutPending: text("As configurações de repasse estão em análise.", "The payout settings are under review."),
  payoutRejected: (reason: string): Text =>
    text(
      `As configurações de repasse foram recusadas: ${reason}`,
      `The payout settings were rejected: ${reason}`
    )
})
