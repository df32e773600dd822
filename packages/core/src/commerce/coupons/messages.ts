import { coded, same, type Text, text } from "../../domain/Text"

const moves = (allowed: ReadonlyArray<string>, none: string) => allowed.length > 0 ? allowed.join(", ") : none

/** Messages of coupons (Portuguese by default, English on request; format validations in English). */
export const couponMessages = coded({
  coupons: text("Cupons encontrados.", "Coupons found."),
  coupon: text("Cupom encontrado.", "Coupon found."),
  couponCreated: text("Cupom criado com sucesso.", "Coupon created."),
  couponUpdated: text("Cupom atualizado com sucesso.", "Coupon updated."),
  couponDeleted: text("Cupom removido com sucesso.", "Coupon removed."),
  couponStatusChanged: text("Status do cupom alterado.", "Coupon status changed."),
  usage: text("Usos do cupom encontrados.", "Coupon uses found."),
  couponValid: text("Cupom válido.", "The coupon is valid."),
  couponNotFound: text("Cupom não encontrado.", "Coupon not found."),
  invalidCouponId: same("Valid coupon ID is required"),
  invalidCode: same("must be 3 to 40 letters, digits, hyphens or underscores, and not shaped like a UUID"),
  codeTaken: (code: string): Text =>
    text(
      `Já existe um cupom com o código ${code} nesta comunidade.`,
      `A coupon with code ${code} already exists in this community.`
    ),
  // why a coupon does not apply (validate, and checkout through CouponRedemption)
  unknownCode: (code: string): Text =>
    text(`Cupom ${code} não encontrado nesta comunidade.`, `Coupon ${code} was not found in this community.`),
  inactive: (code: string): Text => text(`O cupom ${code} está inativo.`, `Coupon ${code} is inactive.`),
  expired: (code: string): Text => text(`O cupom ${code} expirou.`, `Coupon ${code} has expired.`),
  exhausted: (code: string): Text =>
    text(`O cupom ${code} atingiu o número máximo de usos.`, `Coupon ${code} has reached its maximum number of uses.`),
  notApplicable: (code: string): Text =>
    text(`O cupom ${code} não vale para este produto.`, `Coupon ${code} does not apply to this product.`),
  currencyMismatch: (code: string, couponCurrency: string, currency: string): Text =>
    text(
      `O cupom ${code} dá um desconto em ${couponCurrency}, mas o valor está em ${currency}.`,
      `Coupon ${code} gives a discount in ${couponCurrency}, but the amount is in ${currency}.`
    ),
  // terms of a coupon
  discountRequired: text("Envie percentOff ou amountOff.", "Send percentOff or amountOff."),
  discountBoth: text(
    "Um cupom tem percentOff ou amountOff, não os dois.",
    "A coupon has percentOff or amountOff, not both."
  ),
  currencyOnlyWithAmount: text(
    "currency só se aplica a cupons com amountOff.",
    "currency only applies to coupons with amountOff."
  ),
  durationMonthsRequired: text(
    "durationMonths é obrigatório quando duration é repeating.",
    "durationMonths is required when duration is repeating."
  ),
  durationMonthsOnlyRepeating: text(
    "durationMonths só se aplica quando duration é repeating.",
    "durationMonths only applies when duration is repeating."
  ),
  expiresAtPast: text("expiresAt deve estar no futuro.", "expiresAt must be in the future."),
  lockedAfterUse: (field: string): Text =>
    text(
      `${field} não pode mudar depois que o cupom foi usado ou reservado.`,
      `${field} cannot change once the coupon has been used or reserved.`
    ),
  maxBelowUses: (uses: number): Text =>
    text(
      `maxRedemptions não pode ser menor que os usos já feitos ou reservados (${uses}).`,
      `maxRedemptions cannot be lower than the uses already made or reserved (${uses}).`
    ),
  expiredIsFinal: text(
    "Um cupom expirado não pode ser alterado; crie um novo.",
    "An expired coupon cannot be changed; create a new one."
  ),
  statusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o status do cupom de ${from} para ${to}. Movimentos permitidos: ${
        moves(allowed, "nenhum")
      }.`,
      `The coupon status cannot change from ${from} to ${to}. Allowed moves: ${moves(allowed, "none")}.`
    )
})
