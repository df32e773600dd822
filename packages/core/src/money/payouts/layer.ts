import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { PayoutOperationsHttp, PayoutsHttp } from "./Http"
import { Payouts } from "./Payouts"

export const payoutsFeature = feature(Payouts.Default, Layer.mergeAll(PayoutsHttp, PayoutOperationsHttp))
