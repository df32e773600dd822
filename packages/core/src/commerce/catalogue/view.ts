import type { ProductRow } from "./ProductsRepo"
import type { Product } from "./schemas"

const iso = (value: Date | null) => value === null ? null : value.toISOString()

export const productView = (row: ProductRow): Product => ({
  id: row.id,
  communityId: row.communityId,
  type: row.type,
  title: row.title,
  description: row.description,
  price: row.price,
  currency: row.currency,
  billingInterval: row.billingInterval,
  commitmentMonths: row.commitmentMonths,
  allowedPaymentMethods: row.allowedPaymentMethods,
  hasStock: row.hasStock,
  stockQuantity: row.stockQuantity,
  status: row.status,
  publishedAt: iso(row.publishedAt),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
