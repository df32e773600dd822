import { coded, same, type Text, text } from "../../domain/Text"

/** Messages of checkout, charges and purchases (Portuguese by default). */
export const checkoutMessages = coded({
  config: text("Configuração de pagamento.", "Payment configuration."),
  quote: text("Orçamento calculado.", "Quote computed."),
  paid: text("Pagamento aprovado.", "Payment approved."),
  pending: text(
    "Cobrança criada: aguardando o pagamento.",
    "Charge created: waiting for the payment."
  ),
  charge: text("Cobrança encontrada.", "Charge found."),
  chargeNotFound: text("Cobrança não encontrada.", "Charge not found."),
  chargePaid: text("Cobrança paga.", "Charge paid."),
  eventHandled: text("Evento processado.", "Event handled."),
  eventDuplicate: text("Evento já processado.", "Event already handled."),
  purchases: text("Compras encontradas.", "Purchases found."),
  declined: text("Pagamento recusado pelo emissor do cartão.", "The payment was declined by the card issuer."),
  cardTokenRequired: text("Informe o cardToken para pagar com cartão.", "cardToken is required for card payments."),
  cardTokenInvalid: text("Token de cartão inválido.", "Invalid card token."),
  productNotForSale: text("Este produto não está à venda.", "This product is not for sale."),
  notAPlanOption: text(
    "Este produto não é uma opção de cobrança deste plano.",
    "This product is not a billing option of this plan."
  ),
  planRequired: text(
    "Este produto de assinatura não pertence a nenhum plano: informe subscriptionGroupId.",
    "This subscription product belongs to no plan: send subscriptionGroupId."
  ),
  planAmbiguous: text(
    "Este produto é opção de mais de um plano: informe subscriptionGroupId.",
    "This product is an option of more than one plan: send subscriptionGroupId."
  ),
  addOnsOnlyWithPlan: text("Adicionais só valem com um plano.", "Add-ons only go with a plan."),
  addOnNotInPlan: text(
    "Um dos adicionais não pertence a este plano ou não está ativo.",
    "One of the add-ons does not belong to this plan or is not active."
  ),
  methodNotAllowed: (method: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Este produto não aceita ${method}. Formas aceitas: ${allowed.join(", ")}.`,
      `This product does not accept ${method}. Accepted: ${allowed.join(", ")}.`
    ),
  soldOut: text("Produto esgotado.", "Sold out."),
  buyerRequired: text("Informe os dados do comprador (buyer).", "buyer is required."),
  buyerEmailRequired: text("Informe o e-mail do comprador.", "buyer.email is required when not signed in."),
  taxIdInvalid: text("CPF ou CNPJ inválido.", "Invalid CPF or CNPJ."),
  billingAddressRequired: text(
    "Informe o endereço do pagador (billingAddress) para pagar com boleto.",
    "billingAddress is required to pay with a boleto."
  ),
  boletoTaxIdRequired: text(
    "Informe o CPF ou CNPJ do pagador (buyer.taxId) para pagar com boleto.",
    "buyer.taxId is required to pay with a boleto."
  ),
  idempotencyMismatch: text(
    "Esta Idempotency-Key já foi usada com outro pedido.",
    "This Idempotency-Key was already used with a different request."
  ),
  idempotencyInFlight: text(
    "Um pedido com esta Idempotency-Key ainda está em andamento; tente de novo em instantes.",
    "A request with this Idempotency-Key is still in progress; retry shortly."
  ),
  installmentsNotOffered: (max: number): Text =>
    text(
      `O gateway de pagamento oferece no máximo ${max} parcela(s) para esta comunidade.`,
      `The payment gateway offers at most ${max} installment(s) for this community.`
    ),
  notPending: (status: string): Text =>
    text(
      `A cobrança não está pendente (status ${status}). Ações permitidas: nenhuma.`,
      `The charge is not pending (status ${status}). Allowed moves: none.`
    ),
  gatewayAccount: text("Conta no gateway de pagamento.", "Payment gateway account."),
  gatewayAccountSet: text("Conta no gateway de pagamento atualizada.", "Payment gateway account updated."),
  notSandbox: text("Rota disponível apenas no sandbox.", "Route available in the sandbox only."),
  unknownGateway: text("Gateway de pagamento desconhecido.", "Unknown payment gateway."),
  webhookInvalid: text("Webhook inválido.", "Invalid webhook."),
  sandboxPayForbidden: text(
    "Só quem comprou, ou um owner ou admin da comunidade, pode pagar esta cobrança no sandbox.",
    "Only the buyer, or an owner or admin of the community, may pay this charge in the sandbox."
  ),
  totalTooLarge: (max: number): Text =>
    text(
      `O total de uma cobrança não pode passar de ${max} (unidades menores da moeda).`,
      `The total of one charge cannot exceed ${max} minor units.`
    ),
  checkoutNeedsApprovedBusiness: same("Community must have approved business information to enable paid products")
})
