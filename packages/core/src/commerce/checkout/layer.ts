import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { Checkout } from "./Checkout"
import { CheckoutHttp, CheckoutWebhooksHttp, PurchasesHttp } from "./Http"
import { Settlement } from "./Settlement"

export const checkoutFeature = feature(
  Checkout.Default.pipe(Layer.provideMerge(Settlement.Default)),
  Layer.mergeAll(CheckoutHttp, CheckoutWebhooksHttp, PurchasesHttp)
)
