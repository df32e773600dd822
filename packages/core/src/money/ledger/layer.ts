import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { Fees } from "./Fees"
import { FeeOverridesHttp, FeesHttp, LedgerHttp } from "./Http"
import { Ledger } from "./Ledger"

export const ledgerFeature = feature(
  Layer.mergeAll(Fees.Default, Ledger.Default),
  Layer.mergeAll(FeesHttp, FeeOverridesHttp, LedgerHttp)
)
