import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { ManageSubscriptionsHttp, SubscriptionsHttp } from "./Http"
import { Subscriptions } from "./Subscriptions"

export const subscriptionsFeature = feature(
  Subscriptions.Default,
  Layer.mergeAll(SubscriptionsHttp, ManageSubscriptionsHttp)
)
