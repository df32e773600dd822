import { formatMoney } from "../../domain/Money"
import { coded, type Text, text } from "../../domain/Text"

/** Messages of the team's sales list and refunds (Portuguese by default). */
export const refundMessages = coded({
  sales: text("Vendas encontradas.", "Sales found."),
  refunded: text("Reembolso feito.", "Refund made."),
  purchaseNotFound: text("Compra não encontrada.", "Purchase not found."),
  alreadyRefunded: text(
    "Esta compra já foi reembolsada por inteiro. Ações permitidas: nenhuma.",
    "This purchase was already refunded in full. Allowed moves: none."
  ),
  notPaid: text("Esta compra não está paga.", "This purchase is not paid."),
  beyondAmount: (left: number, currency: string): Text =>
    text(
      `O reembolso passa do valor que resta a reembolsar: ${formatMoney(left, currency)}.`,
      `The refund exceeds what is left to refund: ${formatMoney(left, currency)}.`
    ),
  windowClosed: (days: number): Text =>
    text(
      `O prazo de reembolso do gateway (${days} dias após o pagamento) terminou.`,
      `The gateway's refund window (${days} days after payment) has closed.`
    ),
  gatewayRefused: (reason: string): Text =>
    text(`O gateway recusou o reembolso: ${reason}.`, `The gateway refused the refund: ${reason}.`),
  noRefunds: text(
    "O gateway de pagamento configurado não faz reembolsos.",
    "The configured payment gateway does not make refunds."
  ),
  periodOrder: text("from deve ser anterior a to.", "from must be before to.")
})
