import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { Checkout } from "./Checkout"
import { GatewayAccounts } from "./GatewayAccounts"
import { GatewayAccountsHttp } from "./GatewayAccountsHttp"
import { CheckoutHttp, CheckoutWebhooksHttp, PurchasesHttp } from "./Http"
import { Settlement } from "./Settlement"

export const checkoutFeature = feature(
  Layer.merge(Checkout.Default.pipe(Layer.provideMerge(Settlement.Default)), GatewayAccounts.Default),
  Layer.mergeAll(CheckoutHttp, CheckoutWebhooksHttp, PurchasesHttp, GatewayAccountsHttp)
)
