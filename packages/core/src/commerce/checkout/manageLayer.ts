import { feature } from "../../http/Feature"
import { PurchasesManageHttp } from "./PurchasesManageHttp"
import { Refunds } from "./Refunds"

/** The team's side of sales: the sales list, its CSV and refunds (`/api/manage/purchases`). */
export const purchasesManageFeature = feature(Refunds.Default, PurchasesManageHttp)
