import type { SaleRow, SaleStatus } from "./ManageRepo"

const statusOf = (row: SaleRow): SaleStatus =>
  row.refundedAmount === 0 ? "paid" : row.refundedAmount >= row.total ? "refunded" : "partially_refunded"

const iso = (date: Date | null) => date === null ? null : new Date(date).toISOString()

/** A sale as the team's routes show it (the sales list, a refund's `purchase`, the `order.*` webhooks). */
export const saleView = (row: SaleRow) => ({
  id: row.id,
  chargeId: row.chargeId,
  status: statusOf(row),
  buyer: { profileId: row.profileId, fullName: row.buyerName, email: row.buyerEmail },
  product: { id: row.productId, title: row.productTitle },
  paymentMethod: row.paymentMethod,
  installments: row.installments,
  currency: row.currency,
  amount: row.amount,
  discount: row.discount,
  interest: row.interest,
  total: row.total,
  fee: row.fee,
  net: row.net,
  refundedAmount: row.refundedAmount,
  paidAt: iso(row.paidAt),
  createdAt: iso(row.createdAt)!
})
