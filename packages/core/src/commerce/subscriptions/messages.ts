import { coded, same, type Text, text } from "../../domain/Text"

const list = (values: ReadonlyArray<string>, none: string) => values.length > 0 ? values.join(", ") : none

/** Messages of subscriptions (Portuguese by default). */
export const subscriptionMessages = coded({
  list: text("Assinaturas encontradas.", "Subscriptions found."),
  detail: text("Assinatura encontrada.", "Subscription found."),
  billings: text("Cobranças da assinatura.", "Subscription billings."),
  notFound: text("Assinatura não encontrada.", "Subscription not found."),
  addOnNotFound: text("Add-on da assinatura não encontrado.", "Subscription add-on not found."),
  created: text("Assinatura criada.", "Subscription created."),
  canceled: text("Assinatura cancelada.", "Subscription canceled."),
  cancelScheduled: text(
    "A assinatura termina no fim do período atual.",
    "The subscription ends at the end of the current period."
  ),
  reactivated: text("Assinatura reativada.", "Subscription reactivated."),
  paused: text("Assinatura pausada.", "Subscription paused."),
  resumed: text("Assinatura retomada.", "Subscription resumed."),
  quote: text("Orçamento calculado.", "Quote computed."),
  tierChanged: text("Plano alterado.", "Plan changed."),
  tierScheduled: text(
    "A mudança de plano acontece no fim do período atual.",
    "The plan change takes effect at the end of the current period."
  ),
  scheduledChange: text("Mudança agendada.", "Scheduled change."),
  noScheduledChange: text("Nenhuma mudança agendada.", "No scheduled change."),
  scheduledChangeRemoved: text("Mudança agendada desfeita.", "Scheduled change removed."),
  addOnAdded: text("Add-on adicionado.", "Add-on added."),
  addOnRemoved: text("Add-on removido.", "Add-on removed."),
  paid: text("Pagamento aprovado.", "Payment approved."),
  chargeInFlight: text(
    "Uma cobrança desta assinatura está em andamento; tente de novo em instantes.",
    "A charge of this subscription is in progress; try again in a moment."
  ),
  changedMeanwhile: text(
    "A assinatura mudou enquanto a cobrança estava em andamento; nada foi alterado e o valor cobrado será estornado.",
    "The subscription changed while the charge was in progress; nothing was changed and the amount charged is refunded."
  ),
  idempotencyInFlight: text(
    "Uma requisição com esta Idempotency-Key ainda está em andamento.",
    "A request with this Idempotency-Key is still in progress."
  ),
  declined: text("Pagamento recusado pelo emissor do cartão.", "The payment was declined by the card issuer."),
  cardTokenRequired: text("Informe o cardToken para pagar com cartão.", "cardToken is required for card payments."),
  cardTokenInvalid: text("Token de cartão inválido.", "Invalid card token."),
  cardOnly: text(
    "Assinaturas são pagas agora apenas com cartão (CREDIT_CARD).",
    "Subscriptions are paid now by card only (CREDIT_CARD)."
  ),
  discountSet: text("Desconto aplicado.", "Discount applied."),
  discountRemoved: text("Desconto removido.", "Discount removed."),
  noDiscount: text("Esta assinatura não tem desconto.", "This subscription has no discount."),
  extended: text("Período estendido.", "Period extended."),
  paymentLink: text("Link de pagamento enviado ao membro.", "Payment link sent to the member."),
  paymentLinkInvalid: text("Link de pagamento inválido.", "Invalid payment link."),
  paymentLinkGone: text("Link de pagamento já usado ou expirado.", "Payment link already used or expired."),
  productNotFound: same("Product not found"),
  notAPlanOption: text(
    "Este produto não é uma opção de cobrança do plano desta assinatura.",
    "This product is not a billing option of this subscription's plan."
  ),
  samePlanOption: text("A assinatura já está nesta opção.", "The subscription is already on this option."),
  notAnAddOn: text(
    "Este produto não é um add-on do plano desta assinatura.",
    "This product is not an add-on of this subscription's plan."
  ),
  addOnTaken: text("A assinatura já tem este add-on.", "The subscription already has this add-on."),
  downgradeNow: text(
    "Uma redução de plano vale a partir do fim do período (when: period_end).",
    "A downgrade takes effect at the end of the period (when: period_end)."
  ),
  profileNotFound: same("Profile not found in this community."),
  refundOnlyNow: text(
    "O reembolso só vale para o cancelamento imediato (when: now).",
    "A refund only applies to an immediate cancellation (when: now)."
  ),
  futureRequired: text("Informe uma data no futuro.", "Must be a time in the future."),
  periodEndRequired: text("Informe periodEnd para uma cortesia.", "periodEnd is required for a courtesy."),
  periodEndAfterStart: text("periodEnd deve ser depois de startsAt.", "periodEnd must be after startsAt."),
  moveRefused: (phase: string, move: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível ${move} uma assinatura em ${phase}. Movimentos permitidos: ${list(allowed, "nenhum")}.`,
      `A subscription in ${phase} cannot ${move}. Allowed moves: ${list(allowed, "none")}.`
    )
})
