import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { SellingAccounts } from "./Accounts"
import { BusinessInformationHttp, PayoutSettingsHttp, SellingReviewHttp } from "./Http"

export const sellingAccountsFeature = feature(
  SellingAccounts.Default,
  Layer.mergeAll(BusinessInformationHttp, PayoutSettingsHttp, SellingReviewHttp)
)
