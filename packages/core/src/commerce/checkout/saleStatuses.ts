/** The states of a sale as the manage routes filter them (no SQL here: the API definitions import it). */
export const saleStatuses = ["paid", "partially_refunded", "refunded"] as const
export type SaleStatus = typeof saleStatuses[number]
