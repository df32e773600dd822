import { Layer } from "effect"
import { feature } from "../http/Feature"
import { DeliveryWorker } from "./Delivery"
import { WebhooksHttp } from "./Http"
import { WebhooksRepo } from "./Repo"
import { EventRetention } from "./Retention"
import { Webhooks } from "./Webhooks"

export const webhooksFeature = feature(
  Layer.mergeAll(Webhooks.Default, DeliveryWorker, EventRetention).pipe(Layer.provideMerge(WebhooksRepo.Default)),
  WebhooksHttp
)
