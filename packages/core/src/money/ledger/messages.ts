import { formatMoney } from "../../domain/Money"
import { coded, same, type Text, text } from "../../domain/Text"

/** Messages of fees, fee overrides and the ledger (Portuguese by default, English on request). */
export const ledgerMessages = coded({
  fees: text("Taxas da comunidade.", "Community fees."),
  simulation: text("Simulação calculada.", "Simulation computed."),
  feeOverrideSaved: text("Taxa personalizada salva.", "Fee override saved."),
  feeOverrideRemoved: text(
    "Taxa personalizada removida; valem as taxas padrão.",
    "Fee override removed; the default fees apply."
  ),
  statement: text("Extrato encontrado.", "Statement found."),
  balance: text("Saldo encontrado.", "Balance found."),
  amountRange: (max: number): Text => same(`amount must be an integer number of minor units between 0 and ${max}`),
  installmentsRange: (max: number): Text => same(`installments must be an integer between 1 and ${max}`),
  installmentsOnlyCard: (method: string): Text =>
    text(
      `Parcelamento só é permitido no cartão de crédito (CREDIT_CARD); ${method} aceita 1 parcela.`,
      `Only credit card (CREDIT_CARD) payments may be split into installments; ${method} takes 1.`
    ),
  installmentsTooSmall: (amount: number, currency: string, installments: number): Text =>
    text(
      `O valor ${formatMoney(amount, currency)} é pequeno demais para ${installments} parcelas.`,
      `The amount ${formatMoney(amount, currency)} is too small for ${installments} installments.`
    ),
  interestOnlyCard: text(
    "Juros de parcelamento só se aplicam ao cartão de crédito (CREDIT_CARD).",
    "Installment interest applies only to credit card (CREDIT_CARD)."
  ),
  periodOrder: same("from must not be after to")
})
