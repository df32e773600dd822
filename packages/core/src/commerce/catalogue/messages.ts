import { coded, same, type Text, text } from "../../domain/Text"

const moves = (allowed: ReadonlyArray<string>, none: string) => allowed.length > 0 ? allowed.join(", ") : none

/** Messages of products, plans, downsell offers and pricing tiers (Portuguese by default, English on request). */
export const catalogueMessages = coded({
  products: text("Produtos encontrados.", "Products found."),
  product: text("Produto encontrado.", "Product found."),
  productCreated: text("Produto criado com sucesso.", "Product created."),
  productUpdated: text("Produto atualizado com sucesso.", "Product updated."),
  productPublished: text("Produto publicado com sucesso.", "Product published."),
  productDeleted: text("Produto removido com sucesso.", "Product removed."),
  productStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o status do produto de ${from} para ${to}. Movimentos permitidos: ${
        moves(allowed, "nenhum")
      }.`,
      `The product status cannot change from ${from} to ${to}. Allowed moves: ${moves(allowed, "none")}.`
    ),
  productTypeFixed: text(
    "O tipo do produto não pode ser alterado depois de criado.",
    "A product's type cannot change after it is created."
  ),
  billingIntervalRequired: text(
    "billingInterval é obrigatório para produtos SUBSCRIPTION.",
    "billingInterval is required for SUBSCRIPTION products."
  ),
  onlyForSubscriptions: (field: string): Text =>
    text(`${field} só vale para produtos SUBSCRIPTION.`, `${field} applies only to SUBSCRIPTION products.`),
  onlyForOneTime: (field: string): Text =>
    text(`${field} só vale para produtos ONE_TIME.`, `${field} applies only to ONE_TIME products.`),
  stockQuantityRequired: text(
    "stockQuantity é obrigatório quando hasStock é true.",
    "stockQuantity is required when hasStock is true."
  ),
  stockQuantityNeedsStock: text(
    "stockQuantity só vale com hasStock: true.",
    "stockQuantity applies only with hasStock: true."
  ),
  commitmentMonthsInterval: (months: number, interval: string): Text =>
    text(
      `commitmentMonths deve ser um múltiplo dos ${months} meses do intervalo ${interval}.`,
      `commitmentMonths must be a multiple of the ${months} months of the ${interval} interval.`
    ),
  currencyUnsupported: (currency: string): Text => same(`currency ${currency} is not supported`),
  productInUseByPlan: (plan: string): Text =>
    text(
      `Este produto é opção de cobrança do plano "${plan}": retire-o do plano antes de removê-lo.`,
      `This product is a billing option of the plan "${plan}": take it out of the plan before removing it.`
    ),
  productInUseBySpace: (space: string): Text =>
    text(
      `O acesso do espaço "${space}" usa este produto: retire-o do espaço antes de removê-lo.`,
      `The access of the space "${space}" uses this product: take it out of the space before removing it.`
    ),

  plans: text("Planos encontrados.", "Plans found."),
  plan: text("Plano encontrado.", "Plan found."),
  planCreated: text("Plano criado com sucesso.", "Plan created."),
  planUpdated: text("Plano atualizado com sucesso.", "Plan updated."),
  planDeleted: text("Plano removido com sucesso.", "Plan removed."),
  plansReordered: text("Planos reordenados com sucesso.", "Plans reordered."),
  planProducts: text("Produtos do plano encontrados.", "Plan products found."),
  planNotFound: text("Plano não encontrado.", "Plan not found."),
  planUnknown: text(
    "Plano não encontrado ou não pertence a esta comunidade.",
    "Plan not found or not of this community."
  ),
  /** English only, like the spec's other plan add-on messages (§7). */
  addOnNotMonthly: same("Add-ons must be monthly SUBSCRIPTION products."),
  addOnIntervalFixed: (plan: string): Text =>
    text(
      `Este produto é adicional do plano "${plan}": adicionais são mensais; retire-o do plano antes de mudar o intervalo.`,
      `This product is an add-on of the plan "${plan}": add-ons are monthly; take it out of the plan before changing the interval.`
    ),
  duplicateIds: (field: string): Text => same(`${field} must not repeat an id`),
  plansReorderMismatch: text(
    "ids deve conter cada plano da comunidade exatamente uma vez.",
    "ids must list every plan of the community exactly once."
  ),
  planInUseBySpace: (space: string): Text =>
    text(
      `O acesso do espaço "${space}" usa este plano: retire-o do espaço antes de removê-lo.`,
      `The access of the space "${space}" uses this plan: take it out of the space before removing it.`
    ),
  planInUseByTier: (tier: string): Text =>
    text(
      `A faixa de preço "${tier}" mostra este plano: remova-a ou aponte-a para outro plano antes.`,
      `The pricing tier "${tier}" shows this plan: remove it or point it at another plan first.`
    ),
  planInUse: text(
    "Este plano ainda é usado (assinaturas ou vendas) e não pode ser removido.",
    "This plan is still in use (subscriptions or sales) and cannot be removed."
  ),

  downsellOffers: text("Ofertas de retenção encontradas.", "Downsell offers found."),
  downsellOffer: text("Oferta de retenção encontrada.", "Downsell offer found."),
  downsellOfferCreated: text("Oferta de retenção criada com sucesso.", "Downsell offer created."),
  downsellOfferUpdated: text("Oferta de retenção atualizada com sucesso.", "Downsell offer updated."),
  downsellOfferDeleted: text("Oferta de retenção removida com sucesso.", "Downsell offer removed."),
  downsellOfferNotFound: text("Oferta de retenção não encontrada.", "Downsell offer not found."),

  tiers: text("Faixas de preço encontradas.", "Pricing tiers found."),
  tier: text("Faixa de preço encontrada.", "Pricing tier found."),
  tierCreated: text("Faixa de preço criada com sucesso.", "Pricing tier created."),
  tierUpdated: text("Faixa de preço atualizada com sucesso.", "Pricing tier updated."),
  tierDeleted: text("Faixa de preço removida com sucesso.", "Pricing tier removed."),
  tierNotFound: text("Faixa de preço não encontrada.", "Pricing tier not found."),
  addOnUnknown: same("One of the add-ons does not exist in this community or was deleted."),
  addOnIsBillingOption: same("A product that is a plan's billing option cannot be another plan's add-on."),
  publishNeedsApprovedBusiness: same(
    "To publish and start selling, the community needs approved business information. Submit it for review and publish once it is approved."
  ),
  productCurrencyMismatch: (productCurrency: string, approvedCurrency: string): Text =>
    same(
      `This product is priced in ${productCurrency}, but the approved business information uses ${approvedCurrency}`
    )
})
