import { formatMoney } from "../../domain/Money"
import { coded, same, type Text, text } from "../../domain/Text"

/** Messages of payouts (Portuguese by default, English on request; §7 strings verbatim). */
export const payoutMessages = coded({
  balance: text("Saldo encontrado.", "Balance found."),
  list: text("Saques encontrados.", "Payouts found."),
  found: text("Saque encontrado.", "Payout found."),
  requested: text("Saque solicitado.", "Payout requested."),
  canceled: text(
    "Saque cancelado; o valor voltou ao saldo disponível.",
    "Payout canceled; the amount is available again."
  ),
  inTransit: text("Saque marcado como em trânsito.", "Payout marked in transit."),
  paid: text("Saque marcado como pago.", "Payout marked paid."),
  failed: text(
    "Saque marcado como falho; o valor voltou ao saldo disponível.",
    "Payout marked failed; the amount is available again."
  ),
  notFound: text("Saque não encontrado.", "Payout not found."),
  communityNotFound: text("Comunidade não encontrada.", "Community not found."),
  /** Spec §7: "Insufficient balance. Available: ..." */
  insufficient: (available: number, currency: string): Text =>
    same(`Insufficient balance. Available: ${formatMoney(Math.max(0, available), currency)}`),
  openPayout: text(
    "Já existe um saque em aberto (pendente ou em trânsito); aguarde-o ou cancele-o antes de pedir outro.",
    "A payout is already open (pending or in transit); wait for it or cancel it before requesting another."
  ),
  /** A payout is sent only to approved payout settings of the method it was requested with. */
  settingsChanged: (requested: string | null, approved: string | null): Text =>
    approved === null
      ? text(
        "As configurações de repasse não estão aprovadas (foram alteradas ou enviadas para análise depois do pedido); aprove-as antes de enviar o saque.",
        "The payout settings are not approved (they were changed or submitted for review after the request); approve them before sending the payout."
      )
      : text(
        `O saque foi pedido para ${
          requested ?? "outro método"
        }, mas as configurações aprovadas agora usam ${approved}; cancele o saque e peça outro.`,
        `The payout was requested for ${
          requested ?? "another method"
        }, but the approved payout settings now use ${approved}; cancel the payout and request another.`
      ),
  move: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o saque de ${from} para ${to}. Movimentos permitidos: ${
        allowed.length > 0 ? allowed.join(", ") : "nenhum"
      }.`,
      `The payout cannot move from ${from} to ${to}. Allowed moves: ${
        allowed.length > 0 ? allowed.join(", ") : "none"
      }.`
    )
})
