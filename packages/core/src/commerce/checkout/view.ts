import type { ChargeRow } from "./Repo"

const iso = (date: Date | null) => date === null ? null : new Date(date).toISOString()

/** A charge as its buyer sees it (platform fee and net stay with the community's finance routes). */
export const chargeView = (row: ChargeRow) => ({
  chargeId: row.id,
  status: row.status,
  productId: row.productId,
  subscriptionGroupId: row.subscriptionGroupId,
  addOnProductIds: row.addOnProductIds,
  paymentMethod: row.paymentMethod,
  installments: row.installments,
  installmentAmount: row.amounts.installmentAmount,
  currency: row.currency,
  listAmount: row.listAmount,
  discount: row.discount,
  amount: row.amount,
  interest: row.interest,
  total: row.total,
  paymentCode: row.paymentCode,
  expiresAt: iso(row.expiresAt),
  nextAction: row.nextActionText ? JSON.parse(row.nextActionText) as unknown : null,
  paidAt: iso(row.paidAt),
  createdAt: iso(row.createdAt)
})

export type ChargeView = ReturnType<typeof chargeView>
